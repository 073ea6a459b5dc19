import NIOConcurrencyHelpers
import NIOCore

/// Every open live page, and what a page opened now must be shown first.
///
/// `publish` encodes an event once with the socket protocol's `WireEncoder`
/// (the page reads the very objects `liftbuddy watch --json` prints), keeps
/// what a newcomer needs (the last status, the set in progress, the last
/// finished set), and hops once per event loop to hand the bytes to that
/// loop's viewers. Each frame carries a sequence number so a viewer that
/// joins between the two steps sees it once, not twice.
final class ViewerHub: Sendable {
  /// The viewers of one loop; touched on that loop only.
  final class LoopViewers {
    private(set) var viewers: [ObjectIdentifier: ViewerHandler] = [:]
    func add(_ v: ViewerHandler) { viewers[ObjectIdentifier(v)] = v }
    func remove(_ v: ViewerHandler) { viewers[ObjectIdentifier(v)] = nil }
  }

  /// What a page opened now is sent before live events.
  struct Backlog {
    var sequence: UInt64 = 0
    var status: ByteBuffer?
    var lastLift: ByteBuffer?
    /// `set`, `rep`, `rep_provisional` and `rep_withdrawn` since the last
    /// `lift`, in order: the page replays them as if live.
    var currentSet: [ByteBuffer] = []
    static let maxCurrentSet = 1000
    /// The room view's objects, the latest of each key (the coach's link,
    /// then one per rack, `publish(frame:key:)`), sent in key order.
    var latest: [String: ByteBuffer] = [:]
    static let maxLatest = RoomModel.maxRacks + 1

    mutating func record(_ eventClass: EventClass, _ frame: ByteBuffer) {
      switch eventClass {
      case .status: status = frame
      case .lift:
        lastLift = frame
        currentSet.removeAll()
      case .set, .rep, .repProvisional, .repWithdrawn:
        if currentSet.count < Self.maxCurrentSet { currentSet.append(frame) }
      case .sample: break
      }
    }

    var frames: [ByteBuffer] {
      [status, lastLift].compactMap { $0 } + currentSet
        + latest.sorted { $0.key < $1.key }.map(\.value)
    }
  }

  private let loops: [(loop: any EventLoop, viewers: NIOLoopBoundBox<LoopViewers>)]
  private let backlog = NIOLockedValueBox(Backlog())
  private let viewerCount = NIOLockedValueBox(0)

  init(group: any EventLoopGroup) {
    loops = group.makeIterator().map { loop in
      (
        loop,
        NIOLoopBoundBox.makeBoxSendingValue(LoopViewers(), as: LoopViewers.self, eventLoop: loop)
      )
    }
  }

  var count: Int { viewerCount.withLockedValue { $0 } }

  func publish(_ event: DaemonEvent) {
    let eventClass = EventClass(of: event)
    // Live samples are the one frequent event: not encoded when nobody watches.
    if eventClass == .sample, count == 0 { return }
    let frame = Self.frame(WireEncoder.event(event))
    broadcast(frame) { $0.record(eventClass, frame) }
  }

  /// Hands a page object to every open page, and keeps it (the latest per
  /// `key`) for pages opened later: the room view's state, one per rack.
  func publish(frame: ByteBuffer, key: String) {
    broadcast(frame) { backlog in
      guard backlog.latest[key] != nil || backlog.latest.count < Backlog.maxLatest else { return }
      backlog.latest[key] = frame
    }
  }

  private func broadcast(_ frame: ByteBuffer, remember: (inout Backlog) -> Void) {
    backlog.withLockedValue { backlog in
      backlog.sequence &+= 1
      let sequence = backlog.sequence
      remember(&backlog)
      for (loop, viewers) in loops {
        loop.execute {
          for viewer in viewers.value.viewers.values { viewer.deliver(frame, sequence: sequence) }
        }
      }
    }
  }

  /// Registers a viewer (on its own loop) and returns what it must be sent
  /// first, and the sequence number of the last event that includes.
  func join(_ viewer: ViewerHandler, on loop: any EventLoop) -> (
    frames: [ByteBuffer], sequence: UInt64
  ) {
    backlog.withLockedValue { backlog in
      loops.first { $0.loop === loop }?.viewers.value.add(viewer)
      viewerCount.withLockedValue { $0 += 1 }
      return (backlog.frames, backlog.sequence)
    }
  }

  func leave(_ viewer: ViewerHandler, on loop: any EventLoop) {
    loops.first { $0.loop === loop }?.viewers.value.remove(viewer)
    viewerCount.withLockedValue { $0 -= 1 }
  }

  /// Every viewer, for shutdown; each future completes on the viewer's loop.
  func closeAll() -> [EventLoopFuture<Void>] {
    loops.map { loop, viewers in
      loop.flatSubmit {
        EventLoopFuture.andAllComplete(
          viewers.value.viewers.values.map { $0.close(on: loop) }, on: loop)
      }
    }
  }

  /// A JSON Lines record without its LF: one WebSocket text message.
  static func frame(_ record: ByteBuffer) -> ByteBuffer {
    var b = record
    if b.readableBytes > 0, b.getInteger(at: b.writerIndex - 1, as: UInt8.self) == 10 {
      b.moveWriterIndex(to: b.writerIndex - 1)
    }
    return b
  }
}
