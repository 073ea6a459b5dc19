import NIOCore
import Synchronization

/// Where a running source hands its events: in the daemon, straight into
/// the pipeline's one ordered input stream, so that a serial chunk wakes the
/// loop's task and nothing else (no forwarding task, no `merge` in between:
/// at 40 Hz on a still bar those hops were most of the idle cost); for
/// `events(clock:)`, into a stream of its own.
///
/// A live source pushes (`yield`) from its reading thread or task and never
/// waits. A source that could outrun the analysis (a replay at full speed)
/// uses `send`, which returns once the consumer has applied the event, so
/// at most one chunk is in flight and memory stays bounded.
public final class SourceOutput: Sendable {
  /// Hands on one event; with a receipt, the consumer signals it once the
  /// event is applied (or dropped). Returns false when the consumer takes
  /// no more.
  public typealias Deliver = @Sendable (SourceEvent, SourceReceipt?) -> Bool

  private let deliver: Deliver
  private let end: @Sendable () -> Void
  /// The event loop the consumer runs on, if it runs on one: a source that
  /// can wait for its device there (the serial port, a BLE clip's ATT
  /// socket) does, so that a chunk wakes one thread rather than two
  /// (`SerialLoopReader`, `BLELoopReader`).
  public let eventLoop: (any EventLoop)?
  private let state = Mutex(State())

  private struct State {
    var closed = false
    var onClose: [@Sendable () -> Void] = []
  }

  /// - Parameters:
  ///   - deliver: takes each event.
  ///   - end: told once when the source has no more events (a replay's end).
  ///   - eventLoop: where the consumer runs, if on an event loop.
  public init(
    eventLoop: (any EventLoop)? = nil, deliver: @escaping Deliver,
    end: @escaping @Sendable () -> Void
  ) {
    self.eventLoop = eventLoop
    self.deliver = deliver
    self.end = end
  }

  /// Hands on an event without waiting; false once the consumer takes no more.
  @discardableResult
  public func yield(_ event: SourceEvent) -> Bool { deliver(event, nil) }

  /// Hands on an event and waits until the consumer has applied it; false
  /// once the consumer takes no more.
  public func send(_ event: SourceEvent) async -> Bool {
    await withCheckedContinuation { continuation in
      let receipt = SourceReceipt(continuation)
      if !deliver(event, receipt) { receipt.signal(accepted: false) }
    }
  }

  /// The source has no more events.
  public func finish() { end() }

  /// Registers how to stop the reading (wake a thread, cancel a task); run
  /// once, when the consumer closes this output, or at once if it already has.
  public func onClose(_ stop: @escaping @Sendable () -> Void) {
    let closed = state.withLock { state in
      if !state.closed { state.onClose.append(stop) }
      return state.closed
    }
    if closed { stop() }
  }

  /// The consumer takes no more: stops the source.
  public func close() {
    let stops = state.withLock { state in
      defer { state.onClose.removeAll() }
      state.closed = true
      return state.onClose
    }
    for stop in stops { stop() }
  }

  public var isClosed: Bool { state.withLock { $0.closed } }
}
