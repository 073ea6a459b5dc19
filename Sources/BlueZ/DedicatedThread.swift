import Foundation

/// Runs blocking socket work (ATT transactions, HCI reads) on a thread of its
/// own, so it never parks one of Swift's few cooperative-pool threads (two on
/// this machine) for up to a 30-second ATT timeout.
public enum DedicatedThread {
  static func start(name: String, _ body: @escaping @Sendable () -> Void) {
    let thread = Thread(block: body)
    thread.name = name
    thread.start()
  }

  /// Awaits `body`, run on a new thread.
  public static func run<T: Sendable>(
    name: String = "liftbuddy-ble", _ body: @escaping @Sendable () throws -> T
  ) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      start(name: name) { continuation.resume(with: Result { try body() }) }
    }
  }
}
