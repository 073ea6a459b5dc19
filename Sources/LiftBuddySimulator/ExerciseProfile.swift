import LiftBuddyCore

/// Where an exercise's bar lives and how fast it moves: the ranges the
/// simulator draws a lifter from. Heights are of the bar above the floor, in
/// centimetres; the figures are typical of adult lifters in a commercial gym.
public struct ExerciseProfile: Sendable {
  public var exercise: Exercise
  /// Bar height at the rest position reps start from: the top for squat and
  /// bench (lockout), the bottom for deadlift (floor) and overhead press
  /// (front rack).
  public var restHeightCm: ClosedRange<Double>
  public var romCm: ClosedRange<Double>
  /// A mid-range one-rep max, to turn a load into an intensity and so into a
  /// first-rep velocity (the load–velocity profile).
  public var referenceOneRepMaxKg: Double
  /// Taken from and returned to hooks (unrack and re-rack moves).
  public var isRacked: Bool
  /// The lifter steps back with the bar before the first rep.
  public var hasWalkOut: Bool

  /// A 20 kg plate's radius: a deadlift bar on the floor sits this high.
  public static let plateRadiusCm = 22.5

  public static func of(_ exercise: Exercise) -> ExerciseProfile {
    switch exercise {
    case .squat:
      ExerciseProfile(
        exercise: exercise, restHeightCm: 135...155, romCm: 45...65, referenceOneRepMaxKg: 140,
        isRacked: true, hasWalkOut: true)
    case .benchPress:
      ExerciseProfile(
        exercise: exercise, restHeightCm: 95...115, romCm: 28...45, referenceOneRepMaxKg: 100,
        isRacked: true, hasWalkOut: false)
    case .deadlift:
      ExerciseProfile(
        exercise: exercise, restHeightCm: plateRadiusCm...plateRadiusCm, romCm: 48...62,
        referenceOneRepMaxKg: 180, isRacked: false, hasWalkOut: false)
    case .overheadPress:
      ExerciseProfile(
        exercise: exercise, restHeightCm: 140...155, romCm: 45...60, referenceOneRepMaxKg: 60,
        isRacked: true, hasWalkOut: true)
    }
  }

  /// Fastest and slowest first-rep mean concentric velocity (m/s): light
  /// warm-ups move near 1 m/s, near-maximal sets near 0.35 m/s.
  public static let firstRepVelocityMps: ClosedRange<Double> = 0.35...1.0

  /// Mean concentric velocity of a first rep at `loadKg`, before the
  /// lifter's own variation: linear in intensity between 40 % and 100 % of
  /// the reference one-rep max, as load–velocity profiles are.
  public func firstRepVelocity(loadKg: Double) -> Double {
    let intensity = min(max(loadKg / referenceOneRepMaxKg, 0.4), 1.0)
    let v = Self.firstRepVelocityMps
    return v.upperBound - (intensity - 0.4) / 0.6 * (v.upperBound - v.lowerBound)
  }
}
