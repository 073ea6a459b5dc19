/// How fast a replay goes: `1` is the recording's own pace, `N` is N times
/// faster, `max` is as fast as the analyzer goes (no sleeping at all).
public enum ReplaySpeed: Sendable, Equatable, CustomStringConvertible {
  case factor(Double)
  case max

  public init(parsing text: String) throws(ConfigurationError.Reason) {
    if text == "max" {
      self = .max
      return
    }
    guard let n = Double(text), n.isFinite, n > 0 else {
      throw .init("expected a positive number or 'max', got '\(text)'")
    }
    self = .factor(n)
  }

  public var description: String {
    switch self {
    case .factor(let n): n == n.rounded() ? String(Int(n)) : String(n)
    case .max: "max"
    }
  }
}
