import Synchronization

/// A one-way "please stop" signal from a stream's consumer to the thread that
/// feeds it: blocking readers check it between short polls.
final class StopFlag: Sendable {
  private let flag = Atomic<Bool>(false)
  func set() { flag.store(true, ordering: .releasing) }
  var isSet: Bool { flag.load(ordering: .acquiring) }
}
