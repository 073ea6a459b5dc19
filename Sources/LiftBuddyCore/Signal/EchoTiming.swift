/// Whether the clip's sample period grows with the distance it reads.
///
/// A sketch that loops `trigger → pulseIn → print → delay()` waits for each
/// echo before it starts the next wait: its period is a fixed part plus the
/// echo's round trip, 2·d/c, 58.3 µs per centimetre. Between a bench
/// press's chest and lockout that is 2–3 ms of a 25–60 ms period: the clip
/// samples 5–12 % slower at the top of a rep than at the bottom. A clock
/// that spaces samples evenly (`SampleClock`) then stretches the rep's
/// top and squeezes its bottom, and over the serial and BLE streams of
/// the independent simulator (whose `delay()` firmwares do this) the
/// concentric phase read 2–3 % long, mean velocity 0.017–0.021 m/s slow
/// (BENCHMARKS.md, fifty-seventh pass). A clip on a timer (`millis()`
/// schedule) or one that sends its own clock has no such term.
///
/// Which kind of clip this is shows in the arrivals: over a second the
/// samples' mean period follows the heights read in it. Windows of
/// arrivals are regressed on their echo distances (`span = n·base +
/// s·Σcm`, n samples in the window), and once the slope is the echo's
/// (above half of it, `minEvidence` standard errors from zero) the clip is
/// taken for a delay loop for the rest of the stream: the physical slope
/// is used, not the fitted one, which carries the arrivals' jitter.
/// Intervals between single deliveries do not show it: a USB bridge's
/// latency timer (FTDI: 16 ms) and the line's own bytes at 9600 baud move
/// them with the height too (slopes of −20 to +170 µs/cm on scheduled
/// firmwares), while over a second of arrivals those steps average out
/// (scheduled firmwares |t| ≤ 3.8, delay loops 7.7–440, on 80 independent
/// streams over serial and BLE).
struct EchoTiming: Sendable {
  /// The echo's round trip per centimetre of distance, 2 / (343 m/s) (dry
  /// air at 20 °C; ±3 % between 5 and 35 °C).
  static let roundTripSPerCm = 2.0 / 34_300
  /// A reading with no echo (0, or the 400–450 cm a firmware reports for
  /// none) waited about as long as an echo from the HC-SR04's 400 cm
  /// range: firmwares time `pulseIn` out near it.
  static let noEchoCm = 400.0
  /// A window's span: a second holds 15–40 samples, so a bridge's 16 ms
  /// step or a BLE connection interval moves its mean period by about a
  /// millisecond, against the 1–3 ms that a set's heights move it.
  static let windowS = 1.0
  /// Windows weigh less as their samples age, over this many samples
  /// (about 40 s at 25 Hz: a set or two), so the sums stay bounded.
  static let horizonSamples = 1000.0
  /// Standard errors by which the slope must stand above zero: the
  /// scheduled firmwares' largest was 3.8 (above).
  static let minEvidence = 6.0
  /// At least this many windows weigh in before any decision.
  static let minWindows = 20.0

  /// Seconds per centimetre read that the clip's period grows by: zero
  /// until the arrivals show a delay loop.
  private(set) var secondsPerCm = 0.0

  // Weighted sums of the regression (n, Σcm) → span.
  private var nn = 0.0
  private var nc = 0.0
  private var cc = 0.0
  private var nd = 0.0
  private var cd = 0.0
  private var dd = 0.0
  private var weight = 0.0
  private var windows = 0.0

  /// The distance a reading's echo travelled, for timing: no echo waited
  /// for the longest one.
  static func echoCm(_ cm: Double) -> Double {
    cm >= 2 && cm < noEchoCm ? cm : noEchoCm
  }

  /// `count` samples whose echo distances sum to `echoCm` arrived over
  /// `span` seconds.
  mutating func note(span: Double, count: Int, echoCm: Double) {
    guard secondsPerCm == 0, span > 0, count > 0, span.isFinite, echoCm.isFinite else {
      return
    }
    let n = Double(count)
    let keep = max(0, 1 - n / Self.horizonSamples)
    nn = nn * keep + n * n
    nc = nc * keep + n * echoCm
    cc = cc * keep + echoCm * echoCm
    nd = nd * keep + n * span
    cd = cd * keep + echoCm * span
    dd = dd * keep + span * span
    weight = weight * keep + 1
    windows += 1
    guard windows >= Self.minWindows else { return }
    let det = nn * cc - nc * nc
    guard det > 0 else { return }
    let base = (cc * nd - nc * cd) / det
    let slope = (nn * cd - nc * nd) / det
    let residual = max(0, dd - base * nd - slope * cd)
    let variance = residual / (weight - 2)
    let slopeError = (variance * nn / det).squareRoot()
    if slope > Self.roundTripSPerCm / 2, slope > Self.minEvidence * slopeError {
      secondsPerCm = Self.roundTripSPerCm
    }
  }
}
