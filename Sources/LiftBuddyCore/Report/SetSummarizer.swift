/// The set's headline numbers, computed from its finished reps. Pure, so the
/// analyzer can call it after every rep for the live view and once more at
/// the end of the set for the report, and both agree.
public enum SetSummarizer {
  public static func summary(for reps: [RepReport], exercise: Exercise?, loadKg: Double?)
    -> SetSummary
  {
    let meanVelocities = reps.map(\.meanVelocityMps)
    return SetSummary(
      repCount: reps.count,
      bestMeanVelocityMps: meanVelocities.max().map(ReportRounding.metresPerSecond),
      velocityLossPct: velocityLossPct(meanVelocities: meanVelocities),
      estimatedOneRepMaxKg: OneRepMaxEstimator.estimate(
        reps: reps, exercise: exercise, loadKg: loadKg))
  }

  /// Fastest mean velocity so far to the last rep's, in percent (nil for
  /// fewer than 2 reps), rounded to report precision so that every reader,
  /// the coach included, sees and judges the same number. 0 when the last
  /// rep is the fastest; nil when no rep moved (nothing to compare against).
  public static func velocityLossPct(meanVelocities: [Double]) -> Double? {
    guard meanVelocities.count >= 2, let last = meanVelocities.last,
      let fastest = meanVelocities.max(), fastest > 0
    else { return nil }
    let loss = (fastest - last) / fastest * 100
    guard loss.isFinite else { return nil }
    return ReportRounding.percent(loss)
  }
}
