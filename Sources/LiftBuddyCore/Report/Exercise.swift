/// The exercises the contract names. Anything else is "unknown" (nil) and
/// the analysis must still work.
public enum Exercise: String, Codable, Sendable, CaseIterable {
  case squat
  case benchPress = "bench_press"
  case deadlift
  case overheadPress = "overhead_press"

  /// Squat and bench press start at the top and go down first; deadlift and
  /// overhead press start at the bottom and go up first.
  public var isEccentricFirst: Bool {
    switch self {
    case .squat, .benchPress: true
    case .deadlift, .overheadPress: false
    }
  }
}
