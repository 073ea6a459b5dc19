/// Whether the clip's sample period grows with the distance it reads.
///
/// A sketch that loops `trigger → pulseIn → print → delay()` waits for each
/// echo before it starts the next wait: its period is a fixed part plus the
/// echo's round trip, 2·d/c, 58.3 µs per centimetre. Over a squat's or
/// a bench press's 45 cm that is 2.6 ms of a 25–60 ms period: the clip
/// samples 4–10 % slower at the top of a rep than at the bottom. A clock
/// that spaces samples evenly (`SampleClock`) misplaces them by tens of
/// milliseconds over a set, and on the serial and BLE streams of the
/// independent simulator whose firmwares loop on `delay()` the concentric
/// phase read 2.4–2.9 % long (median) and mean velocity 0.012–0.016 m/s
/// slow; spaced by their echoes, 1.3–1.8 % and 0.004–0.009 (1,200
/// looked-at streams; BENCHMARKS.md, fifty-seventh pass). A clip on a
/// timer (a `millis()` schedule) or one that sends its own clock has no
/// such term.
///
/// Which kind of clip this is shows in the arrivals: over a second the
/// samples' mean period follows the heights read in it. Windows of
/// arrivals are regressed on their echo distances (`span = n·base +
/// s·Σcm`, n samples in the window), and once the slope is the echo's
/// (`slopeBand` of it, `minEvidence` standard errors from zero) the clip
/// is taken for a delay loop for the rest of the stream: the physical
/// slope is used, not the fitted one, which carries the arrivals' jitter.
/// Intervals between single deliveries do not show it: a USB bridge's
/// latency timer (FTDI: 16 ms) and the line's own bytes at 9600 baud move
/// them with the height too (slopes of −20 to +173 µs/cm on scheduled
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
  /// The decision is taken afresh after every window and kept once made,
  /// so it must hold against many looks. A firmware that skips failed
  /// pings sends fewer samples in some windows than others, and the
  /// arrivals' slope then wanders: with 6 standard errors and any slope
  /// above half the echo's, 23 of 100 such streams (and 0 of 164 other
  /// scheduled ones) were taken for delay loops (independent looked-at,
  /// 600 streams). With `minEvidence` standard errors and a slope within
  /// `slopeBand` of the echo's (the speed of sound, a reading's scale and
  /// tilt move it by a few per cent): 2 of 264 scheduled and 177 of 198
  /// delay loops on those streams, 1 of 270 and 193 of 209 on 600 others
  /// (a replica of this rule in Python over the same windows). Waiting
  /// for 40 windows instead of 20 took one more false one away and left
  /// the first set of a session timed evenly: MV MAE 0.0328 → 0.0331.
  static let minEvidence = 8.0
  static let minWindows = 20
  static let slopeBand = 0.7...1.5

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
  private var windows = 0

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
    if Self.slopeBand.contains(slope / Self.roundTripSPerCm), slope > Self.minEvidence * slopeError
    {
      secondsPerCm = Self.roundTripSPerCm
    }
  }
}
