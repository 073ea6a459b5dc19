import NIOConcurrencyHelpers
import NIOCore
import Synchronization

/// Every connected client, grouped by the event loop its channel runs on,
/// and the slots they hold.
///
/// `publish` hops once per loop, not once per client, and each loop's list
/// is only ever touched on that loop, so delivery takes no lock at all. The
/// one lock guards the slots, taken on connect, on a client's first command
/// and on disconnect.
///
/// A slot must be earned: a connection that has not yet sent a valid
/// command is *idle*, and when every slot is taken, a new connection takes
/// the oldest idle one's (which is told and closed). So idle connections,
/// however many, never lock out `liftbuddy watch`; only clients that talk
/// can fill the server. A peer user other than the daemon's own and root
/// holds at most `perUser` slots, so that one local user cannot take them
/// all.
final class ClientRegistry: Sendable {
  /// The clients of one loop.
  final class LoopClients {
    private(set) var handlers: [ObjectIdentifier: ClientConnectionHandler] = [:]
    func add(_ handler: ClientConnectionHandler) { handlers[ObjectIdentifier(handler)] = handler }
    func remove(_ handler: ClientConnectionHandler) { handlers[ObjectIdentifier(handler)] = nil }
  }

  /// What a connection may hold.
  struct Limits: Sendable {
    var total: Int
    var perUser: Int
    /// Users whose connections the per-user cap does not count.
    var exemptUsers: Set<UInt32>
  }

  enum Admission {
    case admitted
    /// Admitted in place of an idle connection, which the caller closes.
    case admittedEvicting(any Channel)
    case refused(String)
  }

  private struct Slot {
    var channel: any Channel
    var uid: UInt32
    var earned: Bool
    var order: UInt64
  }

  private struct State {
    var slots: [ObjectIdentifier: Slot] = [:]
    var order: UInt64 = 0
    var closed = false
  }

  let loops: [(loop: any EventLoop, clients: NIOLoopBoundBox<LoopClients>)]
  private let state = Mutex(State())

  init(group: any EventLoopGroup) {
    var loops: [(loop: any EventLoop, clients: NIOLoopBoundBox<LoopClients>)] = []
    for loop in group.makeIterator() {
      loops.append(
        (
          loop,
          NIOLoopBoundBox.makeBoxSendingValue(LoopClients(), as: LoopClients.self, eventLoop: loop)
        ))
    }
    self.loops = loops
  }

  func clients(on loop: any EventLoop) -> NIOLoopBoundBox<LoopClients>? {
    loops.first { $0.loop === loop }?.clients
  }

  /// Takes a slot for a new connection from `uid`.
  func admit(_ channel: any Channel, uid: UInt32, limits: Limits) -> Admission {
    state.withLock { state in
      guard !state.closed else { return .refused("shutting down") }
      if !limits.exemptUsers.contains(uid),
        state.slots.values.count(where: { $0.uid == uid }) >= limits.perUser
      {
        return .refused("too many connections from uid \(uid) (\(limits.perUser))")
      }
      var evicted: (any Channel)?
      if state.slots.count >= limits.total {
        guard
          let oldest = state.slots.filter({ !$0.value.earned }).min(by: {
            $0.value.order < $1.value.order
          })
        else { return .refused("too many clients (\(limits.total))") }
        state.slots[oldest.key] = nil
        evicted = oldest.value.channel
      }
      state.order += 1
      state.slots[ObjectIdentifier(channel)] = Slot(
        channel: channel, uid: uid, earned: false, order: state.order)
      return evicted.map { .admittedEvicting($0) } ?? .admitted
    }
  }

  /// The connection has sent a valid command: its slot is no longer idle.
  func earn(_ channel: any Channel) {
    state.withLock { $0.slots[ObjectIdentifier(channel)]?.earned = true }
  }

  func isEarned(_ channel: any Channel) -> Bool {
    state.withLock { $0.slots[ObjectIdentifier(channel)]?.earned ?? false }
  }

  func release(_ channel: any Channel) {
    _ = state.withLock { $0.slots.removeValue(forKey: ObjectIdentifier(channel)) }
  }

  var count: Int { state.withLock { $0.slots.count } }

  /// Refuses every connection from now on.
  func close() { state.withLock { $0.closed = true } }
  var isClosed: Bool { state.withLock { $0.closed } }
}
