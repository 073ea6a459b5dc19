/// How noisy this clip's readings are, measured on the stream itself.
///
/// The turn finder's thresholds (how far the smoothed height must swing
/// before the bar has turned, how still a held top is) were set for a
/// sonar over a hard floor: a few millimetres of noise. Over a rubber mat
/// or carpet an HC-SR04 reads one to three centimetres either way, and a
/// 3 cm hysteresis then turns on noise: a bar resting between sets never
/// stops "moving" (the set never ends) and a held lockout is never still
/// (a press is never confirmed). So the noise is measured, and the
/// thresholds never sit below a fixed number of its deviations.
///
/// The measure is the residual of each reading from a quadratic through it
/// and its two neighbours on each side (Savitzky–Golay, 5 points): a bar's
/// path is smooth enough that a quadratic follows it over 0.1–0.3 s (what
/// is left is its fourth derivative times the period⁴: under 0.4 cm for
/// the fastest rep at 10 Hz, near nothing at 20 Hz), while the sensor's
/// noise passes with 0.72 of its deviation. The median of the last
/// `windowResiduals` absolute residuals ignores the minority of readings
/// near a jerk, a despiker's miss or a gap.
struct SonarNoise: Sendable {
  /// About 30 s at 20 Hz: longer than a set, so a set of fast reps does not
  /// stand in for the noise, short enough to follow a clip moved to
  /// another floor.
  static let windowResiduals = 600
  /// The median is recomputed this often (a sort of the window), which keeps
  /// its cost per reading to a few dozen operations.
  static let refreshEvery = 50
  /// No estimate before this many residuals (the thresholds keep their
  /// floors): a couple of seconds of readings.
  static let minResiduals = 40
  /// Readings whose spacing varies more than this (a gap, lost samples)
  /// give no residual: the quadratic's weights assume even spacing.
  static let maxSpacingRatio = 1.5
  /// For Gaussian noise σ: the residual's deviation is √(630)/35 σ ≈ 0.717 σ
  /// and the median of its absolute value 0.6745 of that.
  static let medianAbsResidualPerSigma = 0.6745 * 630.0.squareRoot() / 35

  private var last: [TimedHeight] = []  // ≤ 5, newest last
  private var residuals: [Double] = []  // ring buffer of |residual|
  private var nextSlot = 0
  private var sinceRefresh = 0
  private var scratch: [Double] = []
  /// The readings' noise deviation in cm (0 until measured).
  private(set) var sigmaCm = 0.0

  mutating func push(_ s: TimedHeight) {
    if last.count == 5 { last.removeFirst() }
    last.append(s)
    guard last.count == 5 else { return }
    var shortest = Double.infinity
    var longest = 0.0
    for i in 1..<5 {
      let dt = last[i].t - last[i - 1].t
      shortest = min(shortest, dt)
      longest = max(longest, dt)
    }
    guard shortest > 0, longest <= Self.maxSpacingRatio * shortest else { return }
    let h = last
    let residual =
      (3 * h[0].cm - 12 * h[1].cm + 18 * h[2].cm - 12 * h[3].cm + 3 * h[4].cm) / 35
    if residuals.count < Self.windowResiduals {
      residuals.append(abs(residual))
    } else {
      residuals[nextSlot] = abs(residual)
      nextSlot = (nextSlot + 1) % Self.windowResiduals
    }
    sinceRefresh += 1
    if sinceRefresh >= Self.refreshEvery || residuals.count == Self.minResiduals {
      refresh()
    }
  }

  private mutating func refresh() {
    sinceRefresh = 0
    guard residuals.count >= Self.minResiduals else { return }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: residuals)
    scratch.sort()
    sigmaCm = scratch[scratch.count / 2] / Self.medianAbsResidualPerSigma
  }
}
