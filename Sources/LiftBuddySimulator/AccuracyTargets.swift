/// The accuracy the analysis must reach on the curated streams: the figures
/// velocity-based-training devices are judged by (a velocity error a coach
/// would not notice when prescribing load).
public struct AccuracyTargets: Sendable {
  public var exactSetRate = 0.98
  public var meanVelocityMaeMps = 0.03
  public var peakVelocityMaeMps = 0.08
  public var romMaeCm = 1.5

  public init() {}

  /// The targets `score` misses, in words; empty when it meets them all.
  /// No matched reps at all is a miss, never a pass.
  public func misses(_ score: Score) -> [String] {
    var misses: [String] = []
    let rate = score.exactSetRate ?? 0
    if rate < exactSetRate {
      misses.append(
        "exact rep count on \(percent(rate)) of sets (target ≥ \(percent(exactSetRate)))")
    }
    check(score.meanVelocity, "mean-velocity", meanVelocityMaeMps, "m/s", &misses)
    check(score.peakVelocity, "peak-velocity", peakVelocityMaeMps, "m/s", &misses)
    check(score.rom, "ROM", romMaeCm, "cm", &misses)
    return misses
  }

  private func check(
    _ sum: Score.ErrorSum, _ name: String, _ limit: Double, _ unit: String, _ misses: inout [String]
  ) {
    guard let mean = sum.mean else {
      misses.append("\(name) MAE: no matched reps")
      return
    }
    if mean > limit {
      misses.append(
        "\(name) MAE \(ScoreTable.decimal(mean, 3)) \(unit) (target ≤ \(ScoreTable.decimal(limit, 3)))"
      )
    }
  }

  private func percent(_ x: Double) -> String { ScoreTable.decimal(x * 100, 1) + " %" }
}
