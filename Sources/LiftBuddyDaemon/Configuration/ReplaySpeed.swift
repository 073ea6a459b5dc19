/// How fast a replay goes: `1` is the recording's own pace, `N` is N times
/// faster, `max` is as fast as the analyzer goes (no sleeping at all).
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
  case factor(Double)
  case max

  /// The factors taken: slower than a hundredth of real time is a pause,
  /// faster than a thousand times is what `max` is for; and the pacing
  /// arithmetic (durations in nanoseconds) stays far from overflow.
  public static let factors: ClosedRange<Double> = 0.01...1000

  public init(parsing text: String) throws(ConfigurationError.Reason) {
    if text == "max" {
      self = .max
      return
    }
    guard let n = Double(text), n.isFinite, Self.factors.contains(n) else {
      throw .init(
        "expected 'max' or a number from \(Self.factors.lowerBound) to \(Int(Self.factors.upperBound)), got '\(text)'"
      )
    }
    self = .factor(n)
  }

  public var description: String {
    switch self {
    case .factor(let n): DaemonConfiguration.fmt(n)
    case .max: "max"
    }
  }
}
