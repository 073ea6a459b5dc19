import Synchronization

/// Tells a source waiting in `SourceOutput.send` that its event was applied.
/// Signalled exactly once: by the consumer, or, if the event is dropped
/// with it (the consumer stopped first), when it goes away.
public final class SourceReceipt: Sendable {
  private let continuation: Mutex<CheckedContinuation<Bool, Never>?>

  init(_ continuation: CheckedContinuation<Bool, Never>) {
    self.continuation = Mutex(continuation)
  }

  public func signal(accepted: Bool = true) {
    continuation.withLock { $0.take() }?.resume(returning: accepted)
  }

  deinit { signal(accepted: false) }
}
