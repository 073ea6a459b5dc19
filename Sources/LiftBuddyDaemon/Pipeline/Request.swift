import LiftBuddyCore
import Synchronization

/// A question for the pipeline's loop, with the continuation its asker
/// waits on. Answered exactly once: by the loop, or, if the loop ends with
/// the request still queued (the inbox drops it), when the request goes
/// away, with "the daemon is stopping". A client is never left waiting.
final class Request: Sendable {
  enum Question: Sendable {
    case perform(ControlCommand)
    case reload(exercise: Exercise?, loadKg: Double?, sampleRateHz: Double?)
    case heartbeat
    case status
  }

  enum Answer: Sendable {
    case message(String?)
    case status(DaemonStatus)
    /// The loop has ended and took no more requests.
    case stopping
  }

  let question: Question
  private let continuation: Mutex<CheckedContinuation<Answer, Never>?>

  init(_ question: Question, _ continuation: CheckedContinuation<Answer, Never>) {
    self.question = question
    self.continuation = Mutex(continuation)
  }

  func reply(_ answer: Answer) {
    continuation.withLock { $0.take() }?.resume(returning: answer)
  }

  deinit { reply(.stopping) }
}
