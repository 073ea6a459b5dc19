import Synchronization

/// Tells a blocking reader thread that its stream's consumer is gone.
final class RunningFlag: Sendable {
  private let running = Atomic<Bool>(true)
  func stop() { running.store(false, ordering: .releasing) }
  var isRunning: Bool { running.load(ordering: .acquiring) }
}
