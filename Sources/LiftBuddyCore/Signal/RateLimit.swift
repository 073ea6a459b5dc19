/// A token bucket on the source clock: what no clip can send is dropped (and
/// counted) before it reaches a buffer, so memory is bounded by count as
/// well as by time. Without it, ten million lines with one timestamp (a
/// crafted file, a clip flooding faster than its baud rate) would all be
/// buffered, since every time-based bound sees them as one instant.
struct RateLimit: Sendable {
  /// The HC-SR04 needs ≥ 10 ms between pings for its echo to die down (its
  /// datasheet recommends 60 ms): no sonar line stream exceeds 100 Hz. Two
  /// seconds of burst covers a BLE link delivering a stalled backlog at once.
  static let sonar = RateLimit(ratePerS: 100, burstS: 2)
  /// The MPU6050 is read at ≤ 100 Hz by the clips we know; 400 Hz leaves
  /// room for a fast firmware.
  static let attitude = RateLimit(ratePerS: 400, burstS: 2)

  let ratePerS: Double
  let capacity: Double
  private var tokens: Double
  private var lastT = -Double.infinity

  init(ratePerS: Double, burstS: Double) {
    self.ratePerS = ratePerS
    capacity = ratePerS * burstS
    tokens = capacity
  }

  /// Whether a line at `t` may pass. Time that goes backwards refills
  /// nothing.
  mutating func admit(at t: Double) -> Bool {
    if t > lastT {
      if lastT.isFinite { tokens = min(capacity, tokens + (t - lastT) * ratePerS) }
      lastT = t
    }
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }
}
