/// A bar-height sample on the reconstructed sample clock.
public struct TimedHeight: Equatable, Sendable {
  /// Seconds on the source clock (the sample time, not the arrival time).
  public var t: Double
  /// Centimetres above the floor, as the sonar measures it.
  public var cm: Double

  public init(t: Double, cm: Double) {
    self.t = t
    self.cm = cm
  }
}
