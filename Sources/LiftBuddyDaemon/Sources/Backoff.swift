/// Exponential backoff for reconnecting: 0.5 s, 1 s, 2 s, 4 s, 8 s, 8 s …,
/// back to the start after a success.
public struct Backoff: Sendable, Equatable {
  public let initial: Double
  public let maximum: Double
  public private(set) var next: Double

  public init(initial: Double = 0.5, maximum: Double = 8) {
    self.initial = initial
    self.maximum = maximum
    self.next = initial
  }

  /// The delay to wait now; the one after it doubles, up to `maximum`.
  public mutating func take() -> Double {
    let delay = next
    next = min(next * 2, maximum)
    return delay
  }

  public mutating func reset() { next = initial }
}
