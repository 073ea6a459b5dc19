import NIOConcurrencyHelpers
import NIOCore

/// Every connected client, grouped by the event loop its channel runs on.
///
/// `publish` hops once per loop, not once per client, and each loop's list
/// is only ever touched on that loop, so delivery takes no lock at all. The
/// one lock guards the client count, taken on connect and disconnect.
final class ClientRegistry: Sendable {
  /// The clients of one loop.
  final class LoopClients {
    private(set) var handlers: [ObjectIdentifier: ClientConnectionHandler] = [:]
    func add(_ handler: ClientConnectionHandler) { handlers[ObjectIdentifier(handler)] = handler }
    func remove(_ handler: ClientConnectionHandler) { handlers[ObjectIdentifier(handler)] = nil }
  }

  let loops: [(loop: any EventLoop, clients: NIOLoopBoundBox<LoopClients>)]
  private let state = NIOLockedValueBox((count: 0, closed: false))

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

  /// Takes a slot for a new connection; false when full or shutting down.
  func reserveSlot(limit: Int) -> Bool {
    state.withLockedValue {
      guard !$0.closed, $0.count < limit else { return false }
      $0.count += 1
      return true
    }
  }

  func releaseSlot() { state.withLockedValue { $0.count -= 1 } }

  var count: Int { state.withLockedValue { $0.count } }

  /// Refuses every connection from now on.
  func close() { state.withLockedValue { $0.closed = true } }
  var isClosed: Bool { state.withLockedValue { $0.closed } }
}
