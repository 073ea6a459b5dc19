/// Estimates the one-repetition maximum from one set, so that a lifter sees
/// their strength without testing it.
///
/// Where a published load–velocity equation exists for the exercise, the
/// set's fastest rep gives the load as a share of 1RM:
/// - bench press: González-Badillo & Sánchez-Medina 2010 (Int J Sports Med
///   31:347–352), %1RM = 8.4326·MPV² − 73.501·MPV + 112.33, fitted on the
///   mean *propulsive* velocity, so the set's best MPV is used;
/// - squat: Sánchez-Medina et al. 2017 (Sports Med Int Open 1:E80–E88),
///   %1RM = −5.961·MV² − 50.71·MV + 117, on the mean velocity.
///
/// Those equations assume every rep is pushed at maximal intent, and they
/// only use the fastest rep, so fatigue later in the set does not lower the
/// estimate. Deadlift, overhead press and unknown exercises have no such
/// equation here and fall back to Epley's formula, 1RM = load·(1 + reps/30),
/// which assumes the set went to failure and so underestimates a set that
/// stopped short of it.
public enum OneRepMaxEstimator {
  /// Which method gave (or would give) the estimate.
  public enum Method: Equatable, Sendable {
    case benchPressMeanPropulsiveVelocity
    case squatMeanVelocity
    case epley
  }

  public static func method(for exercise: Exercise?) -> Method {
    switch exercise {
    case .benchPress: .benchPressMeanPropulsiveVelocity
    case .squat: .squatMeanVelocity
    case .deadlift, .overheadPress, nil: .epley
    }
  }

  /// The estimate in kg, rounded to report precision; nil when the load is
  /// unknown, there are no reps, or the estimate falls outside the range
  /// where its method can be trusted (see `CoachingThresholds`).
  public static func estimate(reps: [RepReport], exercise: Exercise?, loadKg: Double?) -> Double? {
    guard let loadKg, loadKg > 0, loadKg.isFinite, !reps.isEmpty else { return nil }
    let kg: Double?
    switch method(for: exercise) {
    case .benchPressMeanPropulsiveVelocity:
      // A report without MPV (0) still has MV, which equals MPV whenever
      // there is no braking phase, i.e. at the heavier loads that matter.
      let mpv = reps.map(\.meanPropulsiveVelocityMps).max() ?? 0
      let v = mpv > 0 ? mpv : (reps.map(\.meanVelocityMps).max() ?? 0)
      kg = fromPercent(8.4326 * v * v - 73.501 * v + 112.33, loadKg: loadKg, velocity: v)
    case .squatMeanVelocity:
      let v = reps.map(\.meanVelocityMps).max() ?? 0
      kg = fromPercent(-5.961 * v * v - 50.71 * v + 117, loadKg: loadKg, velocity: v)
    case .epley:
      kg = epley(loadKg: loadKg, reps: reps.count)
    }
    return kg.map(ReportRounding.kilograms)
  }

  /// Epley (1985): 1RM = load·(1 + reps/30); one rep is the 1RM itself.
  static func epley(loadKg: Double, reps: Int) -> Double? {
    guard reps >= 1, reps <= CoachingThresholds.epleyMaximumReps else { return nil }
    return reps == 1 ? loadKg : loadKg * (1 + Double(reps) / 30)
  }

  private static func fromPercent(_ percent: Double, loadKg: Double, velocity: Double) -> Double? {
    guard velocity > 0, percent.isFinite,
      CoachingThresholds.loadVelocityPercentRange.contains(percent)
    else { return nil }
    return loadKg * 100 / percent
  }
}
