import NIOCore
import Synchronization

/// The pipeline loop's one input queue: many producers (the source's
/// reader, the ticker, every asker of a request), one consumer (the loop),
/// first in, first out.
///
/// Why not an `AsyncStream`: its storage is generic code the compiler
/// cannot specialise across the standard library's boundary, so every
/// `yield` from the serial reader (then a thread of its own) looked up generic metadata (about 7 % of
/// the idle daemon's samples in `perf`, 40 chunks a second). This type is
/// concrete: a lock, a ring buffer and the one waiting continuation.
final class LoopInbox: Sendable {
  private struct State {
    var buffer = CircularBuffer<Pipeline.Input>(initialCapacity: 16)
    var waiter: UnsafeContinuation<Pipeline.Input?, Never>?
    var closed = false
  }

  private let state = Mutex(State())

  /// Queues an input; false once the inbox is closed (the loop has ended).
  @discardableResult
  func yield(_ input: Pipeline.Input) -> Bool {
    let (accepted, waiter) = state.withLock {
      state -> (Bool, UnsafeContinuation<Pipeline.Input?, Never>?) in
      guard !state.closed else { return (false, nil) }
      if let waiter = state.waiter {
        state.waiter = nil
        return (true, waiter)
      }
      state.buffer.append(input)
      return (true, nil)
    }
    waiter?.resume(returning: input)
    return accepted
  }

  /// The next input, in order; nil once the inbox is closed and empty, or
  /// at once when the calling task is cancelled. One consumer only. Waits
  /// in the caller's isolation. The continuation still resumes on the
  /// generic executor first and hops back after (seen with `perf`); a loop
  /// pinned to an event loop (`Pipeline.Options.eventLoop`) prefers that
  /// loop as its task executor, so the hop stays on it.
  func next(isolation: isolated (any Actor)? = #isolation) async -> Pipeline.Input? {
    if Task.isCancelled { return nil }
    // The isolation is passed on explicitly: a closure's `#isolation` is
    // not its caller's, and the wait would resume on the global pool.
    return await withTaskCancellationHandler(
      operation: { await wait(isolation: isolation) }, onCancel: { close() },
      isolation: isolation)
  }

  private func wait(isolation: isolated (any Actor)?) async -> Pipeline.Input? {
    await withUnsafeContinuation(isolation: isolation) {
      (continuation: UnsafeContinuation<Pipeline.Input?, Never>) in
      let ready: Pipeline.Input?? = state.withLock { state in
        if let first = state.buffer.popFirst() { return .some(first) }
        if state.closed { return .some(nil) }
        state.waiter = continuation
        return nil
      }
      if let ready { continuation.resume(returning: ready) }
    }
  }

  /// Takes no more inputs; a waiting `next` returns nil.
  func close() {
    let waiter = state.withLock { state in
      state.closed = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Closes, and returns what was queued and never taken.
  func drain() -> [Pipeline.Input] {
    close()
    return state.withLock { state in
      defer { state.buffer.removeAll() }
      return Array(state.buffer)
    }
  }
}
