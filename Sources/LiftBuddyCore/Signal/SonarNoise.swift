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
  /// The median is read this often, from a histogram of the window's
  /// residuals kept as they come and go: a few operations per reading.
  static let refreshEvery = 50
  /// Histogram bins: 0.02 cm is under 2 % of the noise that moves a
  /// threshold off its floor; residuals beyond the last bin (10 cm) count
  /// there.
  static let binCm = 0.02
  static let bins = 500
  /// No estimate before this many residuals (the thresholds keep their
  /// floors): a couple of seconds of readings.
  static let minResiduals = 40
  /// Readings whose spacing varies more than this (a gap, lost samples)
  /// give no residual: the quadratic's weights assume even spacing.
  static let maxSpacingRatio = 1.5
  /// For Gaussian noise σ: the residual's deviation is √(630)/35 σ ≈ 0.717 σ
  /// and the median of its absolute value 0.6745 of that.
  static let medianAbsResidualPerSigma = 0.6745 * 630.0.squareRoot() / 35

  /// The last five readings, oldest at `newest + 1` (mod 5) once full.
  private var last = [TimedHeight](repeating: TimedHeight(t: 0, cm: 0), count: 5)
  private var seen = 0
  private var histogram = [Int32](repeating: 0, count: bins)
  /// The bins of the window's residuals, oldest at `nextSlot` once full.
  private var window: [UInt16] = []
  private var nextSlot = 0
  private var sinceRefresh = 0
  /// The readings' noise deviation in cm (0 until measured).
  private(set) var sigmaCm = 0.0

  mutating func push(_ s: TimedHeight) {
    last[seen % 5] = s
    seen += 1
    guard seen >= 5 else { return }
    // h[0] oldest … h[4] newest.
    let o = seen % 5
    let h0 = last[o]
    let h1 = last[(o + 1) % 5]
    let h2 = last[(o + 2) % 5]
    let h3 = last[(o + 3) % 5]
    let h4 = last[(o + 4) % 5]
    let d1 = h1.t - h0.t
    let d2 = h2.t - h1.t
    let d3 = h3.t - h2.t
    let d4 = h4.t - h3.t
    let shortest = min(min(d1, d2), min(d3, d4))
    let longest = max(max(d1, d2), max(d3, d4))
    guard shortest > 0, longest <= Self.maxSpacingRatio * shortest else { return }
    let residual = (3 * h0.cm - 12 * h1.cm + 18 * h2.cm - 12 * h3.cm + 3 * h4.cm) / 35
    let bin = UInt16(min(Int(abs(residual) / Self.binCm), Self.bins - 1))
    histogram[Int(bin)] += 1
    if window.count < Self.windowResiduals {
      window.append(bin)
    } else {
      histogram[Int(window[nextSlot])] -= 1
      window[nextSlot] = bin
      nextSlot = (nextSlot + 1) % Self.windowResiduals
    }
    sinceRefresh += 1
    if sinceRefresh >= Self.refreshEvery || window.count == Self.minResiduals {
      refresh()
    }
  }

  private mutating func refresh() {
    sinceRefresh = 0
    guard window.count >= Self.minResiduals else { return }
    let half = Int32(window.count / 2)
    var below: Int32 = 0
    for bin in 0..<Self.bins {
      below += histogram[bin]
      if below > half {
        sigmaCm = (Double(bin) + 0.5) * Self.binCm / Self.medianAbsResidualPerSigma
        return
      }
    }
  }
}
