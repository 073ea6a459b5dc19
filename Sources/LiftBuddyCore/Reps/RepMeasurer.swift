import Foundation

/// Measures one confirmed rep on its buffered samples: where exactly the
/// concentric phase starts and ends, and what happened in it.
///
/// The segmenter finds reps on a lagging moving average; the measurer comes
/// back once the rep is over and fits the raw (despiked) samples with a
/// centred window, so its times carry no smoothing lag.
///
/// Turnarounds need care. Where the bar rests (a paused bottom, a held
/// lockout, even for a fifth of a second), any smoother spreads the ramp
/// into the rest and moves the velocity's zero crossing by up to half a
/// window, which is 10 % of a fast rep's duration. So the measurer fits a
/// line to the ramp itself, between 12 % and 45 % of the peak velocity, and
/// extrapolates it to zero; for a bounce, where the velocity passes through
/// zero, that line lands on the crossing too. (Measured: taking the raw
/// crossing whenever the bar moved the other way within a window made a
/// 0.2 s paused squat read 0.1 s long, and gained nothing elsewhere.)
struct RepMeasurer: Sendable {
  let smoother: AnalyzerConfiguration.Smoother
  let windowS: Double
  /// Whether the peak velocity is read from a local cubic (the fastest
  /// reps: see `cubicPeakWindowS`).
  var peakFromCubic = false
  /// Whether the end fits search near the velocity's turnarounds only
  /// (`TurnaroundFit`), or over their whole windows. The whole window is
  /// for fast reps (those whose measurement window is scaled down), whose
  /// turnarounds the smoothed velocity places worst. Measured on tune
  /// seeds 1–40, against near the guess for every rep: mean-velocity MAE
  /// 0.037 → 0.036 m/s, bias −0.006 → −0.003; reps above 1.1 m/s 0.074 →
  /// 0.066, 0.8–1.1 m/s 0.051 → 0.049. Slow reps stay near the guess: over
  /// the whole window a grinder's lockout fit settled on its stall (below
  /// 0.5 m/s 0.024 → 0.025, and sticking points found 85 → 71 %). Also the
  /// fallback when a whole-window fit is thrown off (garbage that survived
  /// the despiker next to a gap put a deadlift's start 0.5 s late, and the
  /// rep, at 4 m/s, was gated out).
  var endsNearGuess = false
  /// Reports the ends the gates judge (two parabolas) instead of the
  /// braked lockout and the bounce's jerk. Those refine the judged ends by
  /// milliseconds and millimetres, but fitted across a gap or an echo they
  /// can leave them by tens of centimetres: a bench press reported at
  /// 109.3 cm from 152.58 s, judged 53.1 cm from 152.7 s (independent
  /// looked-at 1450000; 44.1 cm from 153.23 s by its truth). Used where the
  /// report's range is more than its lift travels (`RepRules.maxRomCm`):
  /// 21 such reports in the 12,000 independent looked-at streams, none
  /// after, and exact sets 32,357 → 32,360 with the frozen runs of
  /// `StuckReadings.frozenByChance` (without this, 25 such reports, one a
  /// 273.5-cm squat, 1730053). Refused instead, seven exact sets fewer.
  var reportsJudgedEnds = false
  /// The window the peak is read over, when not `windowS`: see
  /// `slowPeakMaxFactor`.
  var peakWindowS: Double? = nil
  /// The readings' noise (1 σ, cm: `SonarNoise`), which sets the smallest
  /// velocity dip that is more than noise (`stickingNoiseSigmas`).
  var noiseCm = 0.0

  /// Standard gravity: the propulsive phase ends where the bar decelerates
  /// faster than free fall (Sánchez-Medina, Pérez & González-Badillo 2010,
  /// Int J Sports Med 31:123–129).
  static let gravity = 9.80665
  /// The ramp used to extrapolate a turnaround: low enough to be near the
  /// turnaround, high enough to be above the smoothed noise.
  static let rampLow = 0.12
  static let rampHigh = 0.45
  /// The band's upper edge when the ramp is too steep for the sample rate.
  static let wideRampHigh = 0.7
  /// The end fits (`TurnaroundFit`) use the readings from `fitRestS` beyond
  /// each end to the point `fitRampShare` of the range into the rep: the
  /// rest or the other phase on one side, the ramp on the other. Measured
  /// on the tune split: 0.2, 0.3, 0.35, 0.4, 0.45, 0.5 gave mean-velocity
  /// bias +0.027, +0.015, +0.007, −0.001, −0.010, −0.019 m/s (MAE least at
  /// 0.35–0.4).
  static let fitRampShare = 0.4
  static let fitRestS = 0.3
  /// A silence this long between a slow rep's guessed start and its ramp
  /// leaves the guess no better than anywhere in it (`fitTurnaround`):
  /// twice the rest fitted beside a turnaround. A dirty clip's lost pings
  /// leave gaps of 0.3–0.5 s around starts its smoothed velocity placed
  /// well: at `fitRestS` itself, independent looked-at lost 4 exact sets
  /// more (a heavy pull in 1990065 among them), at 1 s the blind streams
  /// gained none.
  static let silentGuessS = 2 * fitRestS
  /// The start is fitted over less of the range than the lockout: a
  /// drive is no parabola for long (it eases off once the bar moves, and
  /// a heavy press has a burst and a slower stretch before its sticking
  /// region), and a parabola over 40 % of it placed the start early. With
  /// true times (looked-at serial streams of the clip that sends its own
  /// clock, against the simulator's trajectory: 80 streams, 1,155 reps),
  /// starts read 13 ms early at the median (21 mean; paused bench presses
  /// 80) and lockouts 1 ms, so durations read long and MV slow; the clock
  /// rebuilt from arrivals had hidden it by shortening them. Independent
  /// looked-at 12,000, with the clock revised in hindsight, MV MAE (bias):
  /// 0.4 0.0340 (−0.011), 0.35 0.0339 (−0.009), 0.3 0.0341 (−0.007), 0.25
  /// 0.035 (−0.005); with `bounceRampShare`, 0.35 0.0337 (−0.008), 0.3
  /// 0.0339 (−0.006). 0.3, for the margin on the bias, and because 0.35
  /// (and 0.375) read a pull lifted off a run of echoes 3 cm long
  /// (`aDeadliftIsMeasuredFromTheFloorNotItsEchoes`, 20 Hz): fewer
  /// readings of the ramp weigh the echo beside it more.
  static let startRampShare = 0.3
  /// Where the side away from the rep is a reversal, not a rest (the bar
  /// came down into the bottom and bounced, or turned at lockout without a
  /// pause), the velocity passes through zero with a finite slope and the
  /// readings on both sides of the turnaround place it: the fit is made
  /// again over the nearest `reversalRampShare` of the range, where the
  /// ramp's shape farther out (a drive that slows gently and then locks
  /// out sharply) cannot move it. A rest keeps the longer ramp: its side
  /// is flat, so only the ramp can place the start. A reversal is a side
  /// whose fitted curvature is at least 1.5 m/s², where a rest's is zero
  /// up to the noise; the real overhead presses in `../shared/real-data`
  /// turn at 2–4 m/s² on the shoulders and faster at lockout.
  /// Measured on tune seeds 201–400 (4,226 reps; share: MV MAE, bias):
  /// none 0.038, −0.003; 0.3 0.038, +0.002; 0.25 0.038, +0.004; 0.2
  /// 0.038, +0.006; 0.15 0.039, +0.007; 0.1 0.040, +0.009: 0.2 is the
  /// nearest share without a noise penalty; ROM MAE 0.83 → 0.79 cm. The
  /// real presses, a check (`scripts/real-velocity-check.py`): mean
  /// velocity −0.044 → −0.018 m/s against their millimetre readings.
  static let reversalCurvatureCmPerS2 = 150.0
  static let reversalRampShare = 0.2
  /// A bounce's start is refitted over less than that: its drive, like a
  /// start out of rest (`startRampShare`), eases off along the ramp, and
  /// the nearest fifth read touch-and-go squats' starts 10 ms early with
  /// true times (80 streams above; 0.15: 6 ms, 0.1: 2 ms but deadlifts'
  /// MV MAE 0.035 → 0.037). Independent looked-at 12,000, with the clock
  /// revised in hindsight, MV MAE (bias): 0.2 0.0340 (−0.011), 0.15 0.0337
  /// (−0.010); with `startRampShare` 0.3, 0.15 0.0339 (−0.006), 0.1 0.0342
  /// (−0.005); squats 0.0365 → 0.0354.
  static let bounceRampShare = 0.15
  /// A start out of rest under this height is a pull off the floor: a bar
  /// on the floor reads the plates' radius, 17–23 cm, and no lift's rest
  /// but a deadlift's lies under a bench's chest (60 cm and up). There the
  /// lifter's force builds through the slack and the bar bends before the
  /// plates under the clip leave the floor, so the sleeve's speed leaves
  /// zero as a power above one, and a parabola over `startRampShare` of the
  /// range fits the ramp after it: dead-stop pulls' starts read late,
  /// +0.047 s at the median on independent looked-at streams (2,400 of
  /// them) and +0.091 s on blind ones. Such starts are reported from a fit
  /// whose push may build (`TurnaroundFit`'s `builds`); the gates judge
  /// the parabolas'. Dead-stop pulls then: starts +0.039 and +0.049 s, MV
  /// MAE (bias) 0.0299 (+0.018) → 0.0288 (+0.012) and 0.0309 (+0.027) →
  /// 0.0241 (+0.011) m/s. All paired reps: independent looked-at 12,000
  /// 0.0330 (−0.0030) → 0.0329 (−0.0036), ROM 0.926 → 0.923 cm; blind 240
  /// 0.0380 (+0.0101) → 0.0372 (+0.0086), ROM 1.315 → 1.312. One count
  /// moved: ours tune sensor-faults 801's second pull, read from readings
  /// the gate had dropped at 0.477 m/s (truth 0.355), is now faster than
  /// the set's first allows (`RepRules.likeTheSetsReps`), that first read
  /// truer (0.367 against 0.368, was 0.394). The same fit at every start
  /// out of rest read paused bench presses and presses early
  /// (independent MV MAE 0.0332, ROM 1.043; blind MV 0.0389): their push
  /// does not build.
  static let floorRestMaxCm = 35.0
  /// A build is fitted only where the sonar read it: this many readings
  /// between `rampLow` and `startRampShare` of the range. A pull whose
  /// first 0.35 s the sonar kept reading at the floor jumps from it to a
  /// bar at full speed, and a build fitted across the jump timed it later
  /// than the parabolas with the unseen start's correction
  /// (`timeFromRest`) did (`aPullWhoseStartTheSonarMissedIsTimedFromRest`).
  static let buildReadings = 2

  /// Whether the ramp's first part, where a build shows, was read.
  private static func readBuilding(
    _ samples: [TimedHeight], after t: Double, levelCm: Double, romCm: Double
  ) -> Bool {
    let low = levelCm + rampLow * romCm
    let high = levelCm + startRampShare * romCm
    return samples.lazy.filter { $0.t > t && $0.cm >= low && $0.cm <= high }.count
      >= buildReadings
  }
  /// Over a noisier floor (`noiseCm` above 1 cm: a mat, a carpet) the
  /// nearest fifth of the range holds too few readings above the noise,
  /// and the wide fit stays. Tune 201–400: soft-floor MV MAE 0.061 → 0.056
  /// (bias +0.024 → +0.011), all 0.036 either way, continuous sets
  /// unchanged (0.024); 0.5, 0.75 and 1.5 cm gave the same MAE.
  /// There a bounce's start is then reported from the wide ramp fitted
  /// with its jerk (`TurnaroundFit`, a bounce's start): the wide parabola
  /// read it early wherever the drive eased off (independent looked-at
  /// MV bias −0.010 → −0.002 m/s). In its place at any noise it read the
  /// synthetic half-sine presses 0.014 m/s fast (their acceleration is
  /// flat at the bounce), where the nearest fifth reads them within 0.002.
  static let reversalMaxNoiseCm = 1.0
  /// The reported lockout is braked (`TurnaroundFit`'s jerk term). Over a
  /// floor noisier than `reversalMaxNoiseCm` its ramp is taken this far
  /// into the range, not `fitRampShare`: 40 % of the ramp over a mat's
  /// 1–3 cm holds too few readings above the noise to place the stop
  /// (typical independent lockouts ±0.05 s), and the jerk absorbs how the
  /// braking grows toward it, so the readings further down place it
  /// better. Before, the lockout was braked over 40 % up to 2 cm and two
  /// parabolas above (where over 40 % the jerk fitted the noise).
  /// Independent looked-at 1,020, MV MAE (bias) typical / dirty: before
  /// 0.037 (+0.002) / 0.074 (−0.007); braked up to 2 cm over 0.55, 0.7,
  /// 0.85: 0.035, 0.034, 0.033 / 0.073 each; braked at any noise over
  /// 0.7: 0.034 (−0.001) / 0.072 (+0.003), 0.85: 0.033 (−0.002) / 0.069
  /// (+0.001), 1.0: 0.035 / 0.071 (ROM 1.04 → 1.12 cm). From 0.5 cm of
  /// noise instead of 1, the same; from 0, clean ROM 0.46 → 0.53 cm.
  /// Counting unchanged.
  static let noisyLockoutRampShare = 0.85
  /// Likewise a bounce's start over such a floor, fitted with its jerk
  /// (`reversalMaxNoiseCm`): over 55 % of the ramp, not 40 %. Independent
  /// looked-at 1,020 with the lockout above, MV MAE (bias): 0.4 0.039
  /// (−0.002), typical 0.033, dirty 0.069; 0.55 0.038 (−0.003), 0.032,
  /// 0.068; 0.7 0.038 (−0.005) and a rep more missed. Held-out totals
  /// 0.031/0.035/0.036 → 0.030/0.035/0.035.
  static let noisyBounceRampShare = 0.55
  /// A ramp whose first reading past `fitRampShare` is beyond twice that
  /// was not seen (the readings were lost across it): the end fit then
  /// stays near the velocity's turnaround.
  static let unseenRampShares = 2.0
  /// Below this share of the peak velocity the bar counts as stopped.
  static let stillShare = 0.01
  /// Peak velocity is the maximum of a curve: noise pushes a maximum up
  /// (plateau-shaped reps read 0.06 m/s high with the measurement window),
  /// so the peak is read from a wider local-quadratic fit. 1.4 windows
  /// measured the least biased across the simulator's profiles (BENCHMARKS.md).
  static let peakWindowFactor = 1.4
  /// The maximum of a noisy curve still reads high by the noise it picks:
  /// over a soft floor (σ 1.5–3 cm) peaks read 0.11 m/s high. The peak
  /// reported is the vertex of a parabola through the velocity curve
  /// within this share of the peak's window either side of its highest
  /// point, which averages the noise instead of picking its top; never
  /// above the highest point (letting it rise above measured 0.062 →
  /// 0.063 m/s). Only the reported peak: the ramps and stalls keep the
  /// highest point as their scale. Chosen on tune seeds 201–280 (PV MAE,
  /// bias): none 0.069, +0.013; 0.5 0.068, +0.006; 0.75 0.065, −0.001;
  /// 1 0.067, −0.012; 1.5 0.101, −0.061 (a wide parabola flattens a
  /// peaked pulse). Read on seeds never used for it: tune 281–600 0.065 →
  /// 0.061, tune 1–40 0.061 → 0.058; soft-floor 0.147 → 0.123 (201–280).
  static let peakVertexShare = 0.75
  /// A parabola's three terms and two points to average over.
  static let peakVertexMinPoints = 5
  /// The velocity curve the peak is read from is the slope of local
  /// cubics over this many of the quadratic's windows (`peakWindowFactor`).
  /// At the centre of a symmetric window a quadratic's slope is a line's,
  /// the window's mean slope: low at a peak by the velocity's curvature
  /// times the window squared (the leading bias of a local polynomial's
  /// derivative, Fan & Gijbels 1996, ch. 3). A cubic's slope carries that
  /// curvature, and its larger noise (about 2.5× the variance at one
  /// width) is paid back by the wider window. Both simulators read the peaks of
  /// clean streams low through the quadratic (tune 201–400 −0.018 m/s,
  /// independent looked-at −0.031). Chosen on tune seeds 201–400 (PV MAE,
  /// bias): quadratic 0.055, −0.013; cubic over 1.5 windows 0.053,
  /// +0.015; 1.75 0.051, +0.012; 2 0.050, +0.007; 2.25 0.052, 0.000; 2.5
  /// 0.056, −0.009; 3 0.063, −0.024.
  static let peakCubicWindowFactor = 2.0
  /// A cubic's four terms and two readings to average noise over.
  static let peakCubicMinReadings = 6
  /// The fastest reps (rising in under 0.43 s, so their window is held at
  /// `minWindowS`) are too short for that: a fit flattens a peak by about
  /// (window / duration)², and warm-up reps at 1.0–1.5 m/s read 0.24 m/s
  /// low. Their peak comes from a local cubic, which follows the peak's
  /// curvature, over 0.375 s (2.5 minimum windows) widened to hold at
  /// least `cubicPeakMinReadings` (the cubic's 4 terms and 3 to average
  /// noise over). Measured on the tune split with the warm-up scenario:
  /// very fast reps' PV MAE 0.249 → 0.121 m/s, all reps 0.065 → 0.056;
  /// 8 readings or a 0.3 s window were worse (BENCHMARKS.md).
  static let cubicPeakWindowS = 0.375
  static let cubicPeakMinReadings = 7
  /// The measurement's window relative to the segmenter's smoothing window:
  /// measured best across seeds, transports and noise levels (BENCHMARKS.md).
  static let measurementWindowFactor = 1.25
  /// For fast reps the window shrinks to this share of the concentric
  /// duration, never below 0.15 s (three readings at 20 Hz). Measured on
  /// 1,440 simulated streams (seeds 1–20): 0.35 gave the least mean- and
  /// peak-velocity error; 0.3 and 0.4 were worse, no scaling much worse on
  /// fast bench presses (BENCHMARKS.md).
  static let windowShareOfRise = 0.35
  static let minWindowS = 0.15
  /// Nor below this many seconds per centimetre of the sonar's noise
  /// (`noiseCm`). The window is scaled on the rise's 20–80 % transit, and
  /// a rise with long slow ends (the independent simulator's squats cover
  /// that middle in a third of their time) reads as a fast one: over a mat
  /// (σ 2.3 cm) a 0.76 s squat was measured over the fast reps' 0.15 s
  /// window, its peak from a cubic through seven noisy readings at 3.7 m/s
  /// (truly 1.2). Held to 0.26 s at 2.2 cm, the window has readings enough
  /// for the noise, and the cubic peak is read only below 1.25 cm.
  /// Measured with `wholeWindows` (exact sets, MV MAE and bias, PV MAE;
  /// dirty streams' PV): independent looked-at seeds 9000–9059: none
  /// 94.5 %, 0.033 (−0.007), 0.068, 0.157; 0.08 93.9 %, 0.032, 0.065,
  /// 0.135; 0.12 95.1 %, 0.031 (−0.009), 0.061, 0.117; 0.15 95.1 %, 0.031,
  /// 0.062, 0.119. Tune seeds 201–600: counts and MV 0.035 unchanged, PV
  /// 0.056, 0.055, 0.055, 0.056.
  static let noiseWindowSPerCm = 0.12
  /// Should a rep measured over that window fail (its readings too sparse
  /// for a line through each window: 0.15 s holds one or two readings at
  /// 10 Hz, where a BLE clip skipping pings or a dirty stream's removed
  /// echoes leave a fast bench press), it is measured again over this many
  /// of its own reading spacings: three, as 0.15 s is at 20 Hz. Only as a
  /// second attempt: widening every fast rep's window by it read the peaks
  /// of warm-up reps 0.09 m/s low (PV MAE 0.095 → 0.154) on tune seeds
  /// 1–40, where a skipped ping now and then stretches the spacing of
  /// readings that measured well. Tune 1–40: sensor-faults
  /// 88.1 → 89.8 % exact (recall 0.966 → 0.975), soft-floor 95.2 → 96.2 %;
  /// 2, 2.5 and 4 spacings gave the same counts within one set. Slow reps
  /// too: their window had stayed the default (`windowS`, 0.25 s), one
  /// reading at 7.5 Hz, where a dirty clip's every other ping comes back
  /// empty (independent looked-at 60020: a deadlift pull lost).
  /// Independent looked-at 30000–60119: missed 41 → 38; 20000–20119 one
  /// more invented rep (a dirty bench's missed rep found 1 s late); tune
  /// 201–600 missed 244 → 243.
  static let minWindowReadings = 3.0
  /// A slow rep's window is widened only over a ramp the sonar saw, this
  /// many readings inside its 20–80 % (`rampReadings`). Widened across a
  /// dropout, the window fits a line over it: a clean to the shoulders
  /// lost to a BLE stall became a 68-cm "rep"
  /// (`aPickupIsNotProvedByAPutDownFromHigherUp`). Tune 201–600 would
  /// have found 16 reps more that way, each with fewer than two readings
  /// on its ramp; the independent sets, none.
  static let sparseRampReadings = 2
  /// A slow rep's peak is read over the same share of its rise, up to this
  /// many measurement windows: the maximum of a noisy curve reads high,
  /// and a slow rep's curve is flat enough near its peak for a wider fit.
  /// Measured on tune seeds 1–40 (3,870 reps; peak MAE, bias of reps
  /// peaking below 0.8 m/s): 1 (the window itself) 0.0555, +0.033; 1.5
  /// 0.0525, +0.010; 2 0.0530, +0.005; 3 0.0538, +0.001 m/s. Only the
  /// reported peak: the ends, the stalls and the velocity curve keep
  /// `windowS` and the peak read over it as their scale.
  static let slowPeakMaxFactor = 1.5
  /// Acceleration is the second derivative: it needs a wider window than
  /// velocity to be more than noise at 15–40 Hz with 1 cm quantisation.
  static let accelerationWindowFactor = 1.5
  /// A velocity dip after the burst is a sticking point when it is at
  /// least this deep, both absolutely and relative to the burst, and
  /// the bar speeds up again by as much afterwards: floors for a quiet
  /// clip, whose velocity noise (`stickingMinDipMps`) is near zero. A
  /// sticking region is any slowing after the first burst that recovers
  /// (Kompf & Arandjelović 2016); the independent simulator's truth names
  /// one from a dip of 0.02 m/s. Whether it is worth a coach's word is
  /// `CoachingThresholds.stickingDipFraction`'s to say (10 %), not the
  /// report's. These were 0.15 m/s and 20 %, tuned on our own simulator
  /// (82 % of its reps with one found, 3 % without claimed); on the
  /// independent looked-at streams they found 15 % (BENCHMARKS,
  /// fifty-first pass).
  static let stickingDipMps = 0.02
  static let stickingDipFraction = 0.03
  /// Over a noisy floor the velocity curve itself wanders (`velocityNoise`):
  /// a dip and the recovery after it are each a difference of two velocity
  /// estimates (√2 of one's deviation), and this many deviations of that
  /// is where a dip stops being noise in a drive up to
  /// `stickingFreeWindows` windows long.
  static let stickingNoiseSigmas = 1.75 * 2.0.squareRoot()
  /// A longer drive gives the noise more windows to make a dip in (the
  /// largest of m draws grows with ln m): the bound grows by this many
  /// deviations of a difference per e-fold of windows past
  /// `stickingFreeWindows`. Without it, 1.75 deviations claimed a dip on
  /// 23 % of the looked-at reps slower than 0.3 m/s that had none (2.4 %
  /// of all reps without one). On every third looked-at stream (4,000;
  /// found / claimed without, reps under 0.3 m/s and all): 3 deviations
  /// flat 50 / 7.6 %, 35 / 0.7 %; 1 per e-fold 53 / 10 %, 42 / 1.6 %; 2:
  /// 45 / 5.2 %, 35 / 1.1 %; 2 from 1.5 windows: 39 / 2.8 %, 29 / 0.7 %;
  /// the thresholds before this pass 18 / 2.8 %, 15 / 1.8 %.
  static let stickingSigmasPerLogWindow = 2.0
  static let stickingFreeWindows = 2.0
  /// The dip is read on a velocity fitted over this many of the
  /// measurer's windows. A heavy rep's sticking region spans a tenth to a
  /// quarter of a 1–2 s drive; the velocity's noise falls as the window's
  /// 1.5th power while a region wider than the window keeps most of its
  /// dip. Looked-at, every third stream (found / claimed without, under
  /// 0.3 m/s and all), with the bounds above: 1.25 37 / 3.2 %, 32 / 1.7 %;
  /// 1.5 45 / 5.2 %, 35 / 1.1 %. With flat bounds, all 12,000 (found /
  /// claimed without, all reps): at 2 deviations, the measurer's own
  /// window (floors 0.05 m/s and 8 %) 47 / 6.4 %, 1.5 of it (0.02 m/s, 3
  /// %) 48 / 1.8 %, 2.0 of it (0.05, 8 %) 26 / 0.4 %: wider, the regions
  /// are flattened too; at 1.75, 1.5 of it 52 / 2.4 %, and a window of
  /// 0.3 of the rep's duration instead 53 / 6.1 %.
  static let stickingWindowFactor = 1.5
  /// No sticking point is named on a rep this fast. A sticking region is
  /// a near-maximal lift's (Kompf & Arandjelović 2016), and the fastest of
  /// the four lifts at 80 % of 1RM, the squat, averages about 0.6 m/s
  /// (Sánchez-Medina et al. 2017: 0.32 m/s at 1RM, linear in load); a
  /// dip read in a faster drive is taken for noise. Looked-at 12,000 (by the
  /// rep's measured mean): claimed on reps without a dip 1.43 → 1.18 %,
  /// claims right 85.1 → 87.3 %, found unchanged (40.4 %); at 0.6 m/s
  /// 0.94 % and 89.6 %, but that is the squat's own 80 %. Held-out
  /// (3,720): claimed 1.4 → 1.2 %, found unchanged (40.1 %).
  static let maxStickingMeanVelocityMps = 0.7
  /// Under that, the slower the rep, the likelier its dip: in the bench
  /// press the sticking region is seen at 90 % and 100 % of 1RM and not at
  /// 75–80 % (Newton et al. 1997; Valverde-Esteve & García-Manso 2021),
  /// and 90 % of a bench press's 1RM is about 0.3 m/s of mean velocity
  /// (González-Badillo & Sánchez-Medina 2010). Where a dip is the rule,
  /// less evidence is needed to believe one: a rep at or under
  /// `stickingNearMaxMps` needs `stickingNearMaxShare` of the noise bound,
  /// the share growing linearly to all of it at
  /// `maxStickingMeanVelocityMps`. Independent looked-at 12,000 (found on
  /// reps with a dip / claimed on reps without): 40.4 / 1.2 % → 58.1 / 2.2
  /// %, dirty streams 24.0 / 2.9 → 50.9 / 5.0 %; on the 2,400 of them with
  /// the truth's dips, claims right 88.8 → 85.5 %, found within a tenth of
  /// the range of the true point 91 → 85 %. With the floor scaled too:
  /// half the bound 63 / 2.5 %, right 83.8 %; 0.75 of it 50 / 1.6 %; the
  /// whole bound at 0.45 m/s and under, 0.7 of it (a step): 54 / 1.6 %,
  /// 87.0 %. The price is paid on near-maximal reps without a dip, rare
  /// at the rack: made to order at 0.33 m/s, an even drive is given one
  /// on 35 % of reps, from 8 % (`StickingRegionTests`).
  static let stickingNearMaxMps = 0.3
  static let stickingNearMaxShare = 0.6

  /// The share of the noise bound a dip needs in a rep whose mean velocity
  /// is `meanVelocityMps` (`stickingNearMaxShare`).
  static func stickingEvidenceShare(meanVelocityMps: Double) -> Double {
    let span = maxStickingMeanVelocityMps - stickingNearMaxMps
    let toward = min(max((meanVelocityMps - stickingNearMaxMps) / span, 0), 1)
    return stickingNearMaxShare + (1 - stickingNearMaxShare) * toward
  }

  /// Where in the range (shares of it, from the bottom) a sticking region
  /// lies: after the drive's first acceleration and before the lockout's
  /// position of mechanical advantage, "a force-reduced transition phase
  /// between a strain energy-assisted acceleration phase and a
  /// mechanically advantageous maximum strength region" (Elliott, Wilson
  /// & Kerr 1989, the bench press; the squat's and the deadlift's lie
  /// part-way up too: van den Tillaar et al. 2014). A dip read in the
  /// first tenth is the bar still leaving the bottom, and one in the last
  /// three tenths the lifter slowing into lockout, where the noise has the
  /// decelerating velocity to make dips in. Independent looked-at, the
  /// 2,400 with the truth's dips (found / claimed without / claims right):
  /// 57.6 / 2.0 / 85.5 % → 56.0 / 1.4 / 88.8 %; 0.05–0.8: 56.8 / 1.6 /
  /// 87.4 %.
  static let stickingRegionShares = 0.1...0.7

  /// The least dip (and recovery) that is a sticking point in a drive of
  /// `durationS` at `meanVelocityMps` whose velocity is read over
  /// `windowS`.
  static func stickingMinDipMps(
    noiseCm: Double, windowS: Double, durationS: Double, meanVelocityMps: Double,
    _ samples: [TimedHeight]
  ) -> Double {
    let windows = durationS / windowS
    let sigmas =
      stickingNoiseSigmas + stickingSigmasPerLogWindow * 2.0.squareRoot()
      * log(max(1, windows / stickingFreeWindows))
    let share = stickingEvidenceShare(meanVelocityMps: meanVelocityMps)
    return max(
      stickingDipMps, share * sigmas * velocityNoise(noiseCm: noiseCm, windowS: windowS, samples))
  }

  /// The deviation, in m/s, of a velocity read as the slope of a line
  /// through `windowS` of readings with `noiseCm` of noise each: σ·√(12 /
  /// (n·W²)) for n evenly spaced readings.
  static func velocityNoise(noiseCm: Double, windowS: Double, _ samples: [TimedHeight]) -> Double {
    guard noiseCm > 0, windowS > 0, samples.count >= 2,
      let first = samples.first?.t, let last = samples.last?.t, last > first
    else { return 0 }
    let perWindow = max(2, windowS * Double(samples.count - 1) / (last - first))
    return noiseCm / 100 * (12 / (perWindow * windowS * windowS)).squareRoot()
  }
  /// The share of the concentric phase over which the drive off the bottom
  /// is averaged (coaching: the first quarter is where lifters "lose" it).
  static let bottomDriveShare = 0.25
  /// The part of the rise, from its bottom, that still counts as the
  /// bottom when looking for where the concentric drive starts.
  static let bottomShare = 0.15
  /// Stalls passed through within one rise: a grinder has one sticking
  /// point, rarely two.
  static let maxStalls = 3

  struct Measured: Sendable {
    var analysis: RepAnalysis
    var eccentricStartS: Double?
    /// The readings it was measured on, a stuck sonar's repeats out
    /// (`StuckReadings`, not bridged): the rules time the descent before
    /// a set's first rep on the same readings.
    var kept: [TimedHeight] = []
    /// What the plausibility gates judge (`measure`).
    var judged: Judged
    /// Whether the bar was seen moving (`seenMoving`). A first rise seen
    /// at its ends only is a rep once its way back down was seen too
    /// (`Analyzer.checkReturn`), and never a final one at its top.
    /// Independent looked-at seeds (660 streams): reps missed 64 → 62,
    /// sets exact 95.3 → 95.5 %, invented reps 38 → 39; tune 201–600
    /// missed 218 → 213, nothing invented.
    var rampSeen = true
    /// The deviation of the peak velocity read, for `shrinkPeak`:
    /// `velocityNoise` over the measurer's peak window (the cubic's,
    /// `cubicPeakWindowS`, is wider, so a fast rep's is a little
    /// overstated).
    var peakNoiseMps = 0.0
  }

  /// The concentric phase as the plausibility gates see it, rounded as
  /// reported: both ends fitted as two parabolas (the lockout not braked,
  /// a bounce's start without its jerk). The set's rules time the bar's
  /// leaving the bottom from `startS` too (`Analyzer`): they were measured
  /// on it, and a start placed later by the jerk fit let a bar's stand
  /// before its drive take in the drive's first readings.
  struct Judged: Sendable {
    var startS: Double
    var durationS: Double
    var romCm: Double
    var meanVelocityMps: Double
  }

  /// Concentric phases shorter than this, or faster on average, are not a
  /// barbell moved by a person (a knock on the clip, a dropped bar).
  static let minConcentricS = 0.15
  static let maxMeanVelocityMps = 3.0
  /// The slowest grinders take 3–5 s to lock out; a rise that takes longer
  /// is the bar being carried or drifting, not a rep.
  static let maxConcentricS = 8.0
  /// Nor slower on average than this: a maximal single, the slowest rep
  /// there is, averages 0.10 ± 0.04 m/s on the bench press, the slowest
  /// lift (powerlifters' 1RM, Helms et al. 2017), 0.15–0.3 on the others;
  /// half the slowest of those is a bar eased off the hooks or drifting
  /// (with a track gate tried in the thirty-fourth pass, a bench press
  /// unracked over a dirty floor measured 10 cm in 7.5 s, 0.014 m/s, as a
  /// rep: independent looked-at 60018). A guard: nothing measured moved
  /// (looked-at 1,020 and our splits stream by stream, five held-out
  /// sets' totals).
  static let minMeanVelocityMps = 0.05
  /// The measured range may fall short of the smoothed rise a little (the
  /// ends are fitted, not picked), but not by a quarter.
  static let minRomShareOfRise = 0.75
  /// A rep's mean velocity is well under its peak: a bar starts and ends
  /// at rest, and mean-to-peak ratios run 0.5–0.7 (no rep of the 13,448
  /// in the independent looked-at streams is above 0.80). A measured
  /// concentric whose mean is over this share of its peak was timed from
  /// the middle of its ramp: an echo run, a no-echo zero or a BLE queue's
  /// dropped packets hid the start (independent looked-at 90104: 1.32
  /// m/s measured, mean equal to peak, for a 0.73 m/s pull).
  static let maxMeanShareOfPeak = 0.8

  /// The time a rep's start measured at `mps` lost: a bar speeding up
  /// from rest at `TrackGate.typicalAccelerationCmPerS2` takes `v / a` to
  /// reach it, over which a bar already at `v` would have covered the same
  /// ground in half the time.
  static func unseenStartS(atMps mps: Double) -> Double {
    0.5 * mps * 100 / TrackGate.typicalAccelerationCmPerS2
  }

  /// A peak velocity read through a noisy sonar is pulled toward the peak
  /// its mean implies (`peakShareOfMean`), by how much its noise exceeds
  /// the spread of peaks about that (`peakSpreadShare`): the weight on
  /// what was read is s²/(s² + σ²), s the spread and σ the read peak's
  /// deviation (`velocityNoise`), so a quiet clip's peak stands as read
  /// and a dirty one's (σ 0.1 m/s and more over 2 cm of noise) leans on
  /// its mean, which is measured over the whole rep. A peak at its floor
  /// (the mean: a curve highest at its lockout, `RepRules.seenDriven`) is
  /// left there, and so is every decision taken on the peak read (the
  /// unseen start, `timeFromRest`): only the reported peak is shrunk.
  private static func shrinkPeak(_ m: inout Measured) {
    var r = m.analysis.report
    let mean = r.meanVelocityMps
    guard r.peakVelocityMps > mean, m.peakNoiseMps > 0 else { return }
    let spread = peakSpreadShare * mean
    let weight = spread * spread / (spread * spread + m.peakNoiseMps * m.peakNoiseMps)
    let shrunk = weight * r.peakVelocityMps + (1 - weight) * peakShareOfMean * mean
    r.peakVelocityMps = ReportRounding.metresPerSecond(max(shrunk, mean))
    m.analysis.report = r
  }
  /// The peak a rep's mean implies: the real overhead presses in
  /// `../shared/real-data`, read by a laser quiet enough that their peaks
  /// stand as read, peak at a median 1.39 and 1.49 of their mean (left
  /// and right sensor); the simulators' truths at 1.53 ± 0.11
  /// (independent looked-at, 46,286 reps) and 1.65 ± 0.15 (blind
  /// looked-at, 3,258); a half-sine at π/2. PV MAE with 1.5 and π/2:
  /// independent looked-at 12,000 0.0495 and 0.0493, blind 0.0441 and
  /// 0.0438 m/s.
  static let peakShareOfMean = 1.5
  /// How far a rep's peak may lie from `peakShareOfMean` of its mean, as a
  /// share of the mean. Independent looked-at 2,400 (1400000–1590000) /
  /// blind looked-at 240, PV MAE with π/2: unshrunk 0.0530 / 0.0478; 0.10
  /// 0.0520 / 0.0461; 0.15 0.0499 / 0.0436; 0.25 0.0490 / 0.0436. With 1.5
  /// and 0.25, PV MAE (bias): independent looked-at 12,000 0.0538 (+0.001)
  /// → 0.0495 (−0.008), held-out 4,200 0.0537 → 0.0492; blind looked-at
  /// 0.0478 (+0.011) → 0.0441 (−0.006), held-out 0.0487 → 0.0448; ours
  /// tune 0.050 → 0.049, held-out 0.053 → 0.052. No count and no other
  /// figure moved; the real presses' peaks by 0.0005 m/s on average.
  static let peakSpreadShare = 0.25

  /// A rep measured from where the bar was already at its full speed
  /// (`maxMeanShareOfPeak`) timed from rest: its start moved back by
  /// `unseenStartS`. Not where the sonar's rate gives the rise (`readings`
  /// over it at the rate it was read) too few readings to read a peak
  /// from (`peakCubicMinReadings`): a fast rep read at 10 Hz reads its
  /// mean near its peak from four readings (SparseReadingsTests); nor
  /// along a path bridged across a stuck run, straight and so as fast at
  /// its mean as at its peak. Only the report moves: the rules judge the
  /// rep as fitted (`Judged`). MV MAE, independent fresh 1,440: 0.036 →
  /// 0.034 (bias −0.003 → −0.006); looked-at 1,020: 0.038 → 0.037 (per
  /// rep 0.0382 → 0.0366); our tune 201–600 0.035 → 0.034 (bias +0.015 →
  /// +0.012), held-out 0.037 → 0.036, the sweep 0.030 → 0.029; no count
  /// moved anywhere.
  private static func timeFromRest(_ m: inout Measured, readings: Double) {
    var r = m.analysis.report
    let start = r.concentricStartS
    let end = r.concentricEndS
    guard r.meanVelocityMps > maxMeanShareOfPeak * r.peakVelocityMps,
      readings >= Double(peakCubicMinReadings)
    else { return }
    let earlier = start - unseenStartS(atMps: r.meanVelocityMps)
    r.concentricStartS = ReportRounding.seconds(earlier)
    r.meanVelocityMps = ReportRounding.metresPerSecond(r.romCm / 100 / (end - r.concentricStartS))
    r.timeToPeakVelocityS = ReportRounding.seconds(
      r.timeToPeakVelocityS + start - r.concentricStartS)
    r.eccentricDurationS = r.eccentricDurationS.map {
      ReportRounding.seconds(max($0 - (start - r.concentricStartS), 0))
    }
    m.analysis.report = r
  }

  /// The rise measured, or nil when what was measured is no barbell rep
  /// (the plausibility gates above, `seenMoving`).
  func measure(
    samples: [TimedHeight], rise: TurnFinder.Rise, index: Int, minRiseCm: Double,
    maxRomCm: Double, attitude: AttitudeLog, noiseCm: Double = 0,
    answered: Answered = { _, _ in [] }, strictDescent: Bool = false
  ) -> Measured? {
    // Without a stuck sonar's repeats (`StuckReadings`). Should they have
    // hidden so much of the rise that too little is left to fit, the
    // straight path across them still bounds it: a rep is not lost to them.
    // Likewise a rep whose ends, fitted over their whole windows, fail the
    // gates is measured again with the ends near the velocity's turnarounds.
    // A first rise whose ramp went unseen is measured all the same, and
    // marked: only the way back down can tell the bar's pull, too fast
    // or too noisy for its middle to be read, from a sonar switching
    // between two targets (`Measured.rampSeen`). Last, a ramp the sonar
    // never heard is measured along the straight path across its silence
    // (`bridgedAcrossSilence`).
    let rampSeen = Self.seenMoving(
      samples, rise: rise, noiseCm: noiseCm, answered: answered, strictDescent: strictDescent)
    guard rampSeen || Self.roundTripTop(rise) == nil else { return nil }
    let cleaned = StuckReadings.removed(from: samples, noiseCm: noiseCm)
    let gated = { (samples: [TimedHeight], nearGuess: Bool, sparse: Bool) -> Measured? in
      var measurer = self
      measurer.endsNearGuess = nearGuess
      measurer.noiseCm = noiseCm
      guard
        var m = measurer.measureScaled(
          samples: samples, rise: rise, index: index, attitude: attitude, sparse: sparse)
      else { return nil }
      // A report of a range its lift cannot travel is measured again on
      // the ends the gates judge (`reportsJudgedEnds`).
      if m.analysis.report.romCm > maxRomCm {
        var judgedEnds = measurer
        judgedEnds.reportsJudgedEnds = true
        if let again = judgedEnds.measureScaled(
          samples: samples, rise: rise, index: index, attitude: attitude, sparse: sparse)
        {
          m = again
        }
      }
      let rep = m.judged
      guard rep.durationS >= Self.minConcentricS, rep.durationS <= Self.maxConcentricS,
        rep.meanVelocityMps <= Self.maxMeanVelocityMps,
        rep.meanVelocityMps >= Self.minMeanVelocityMps,
        rep.romCm >= minRiseCm * Self.minRomShareOfRise, rep.romCm <= maxRomCm
      else { return nil }
      return m
    }
    var attempts = [cleaned]
    if cleaned.count < samples.count {
      attempts.append(StuckReadings.removed(from: samples, bridged: true, noiseCm: noiseCm))
    }
    // Readings at 20 Hz or faster never need the second, sparse attempt.
    let spacingS = Self.readingSpacing(cleaned, rise: rise)
    let sparseHelps = Self.minWindowReadings * spacingS > Self.minWindowS
    for sparse in sparseHelps ? [false, true] : [false] {
      for nearGuess in [false, true] {
        for (i, readings) in attempts.enumerated() {
          if var m = gated(readings, nearGuess, sparse) {
            m.kept = cleaned
            m.rampSeen = rampSeen
            m.analysis.unseen = UnseenRamp.longestSilence(
              in: cleaned, of: m.analysis.report)
            // Not along a path bridged across a stuck run: straight, it
            // reads its mean at its peak, a lower bound on the speed.
            if i == 0 {
              Self.timeFromRest(
                &m, readings: (rise.peak.t - rise.valley.t) / max(spacingS, .leastNonzeroMagnitude))
            }
            Self.shrinkPeak(&m)
            return m
          }
        }
      }
    }
    if Self.roundTripTop(rise) != nil,
      let bridged = Self.bridgedAcrossSilence(cleaned, rise: rise, answered: answered)
    {
      for nearGuess in [false, true] {
        if var m = gated(bridged, nearGuess, false) {
          m.kept = cleaned
          m.rampSeen = rampSeen
          m.analysis.unseen = UnseenRamp.longestSilence(in: cleaned, of: m.analysis.report)
          return m
        }
      }
    }
    return nil
  }

  private func measureScaled(
    samples: [TimedHeight], rise: TurnFinder.Rise, index: Int, attitude: AttitudeLog,
    sparse: Bool
  ) -> Measured? {
    // A fast rep (a light bench press rises in a third of a second) would
    // be flattened by a window tuned for a squat: scale it with the rep.
    if let riseS = Self.riseDuration(samples, rise: rise) {
      let sparseS = sparse ? Self.minWindowReadings * Self.readingSpacing(samples, rise: rise) : 0
      let scaled = max(Self.minWindowS, Self.windowShareOfRise * riseS, sparseS)
      let forNoise = Self.noiseWindowSPerCm * noiseCm
      let fitted = max(scaled, forNoise)
      // The peak is read over `peakWindowFactor` of its window, itself a
      // widening against noise: over the larger of that and the noise's
      // window, not their product (squats at 0.8 s over a 2.5 cm floor
      // read their peaks 0.087 m/s low with the product, AnalyzerTests).
      let peakScale = max(scaled, forNoise / Self.peakWindowFactor)
      if fitted < windowS {
        var scaledMeasurer = RepMeasurer(
          smoother: smoother, windowS: fitted, peakFromCubic: fitted <= Self.minWindowS,
          endsNearGuess: endsNearGuess, peakWindowS: forNoise > scaled ? peakScale : nil,
          noiseCm: noiseCm)
        scaledMeasurer.reportsJudgedEnds = reportsJudgedEnds
        return scaledMeasurer.measureFixed(
          samples: samples, rise: rise, index: index, attitude: attitude)
      }
      var slow =
        sparseS > windowS
          && (Self.rampReadings(samples, rise: rise) >= Self.sparseRampReadings
            || Self.climbedAtItsRate(samples, rise: rise, noiseCm: noiseCm))
        ? RepMeasurer(smoother: smoother, windowS: sparseS, noiseCm: noiseCm) : self
      slow.endsNearGuess = true
      slow.reportsJudgedEnds = reportsJudgedEnds
      slow.peakWindowS = min(peakScale, Self.slowPeakMaxFactor * windowS)
      return slow.measureFixed(samples: samples, rise: rise, index: index, attitude: attitude)
    }
    var unscaled = self
    unscaled.endsNearGuess = true
    return unscaled.measureFixed(samples: samples, rise: rise, index: index, attitude: attitude)
  }

  private func measureFixed(
    samples: [TimedHeight], rise: TurnFinder.Rise, index: Int, attitude: AttitudeLog
  ) -> Measured? {
    guard samples.count >= 5 else { return nil }
    let k = LocalFit.kinematics(
      of: samples, smoother: smoother, windowS: windowS,
      accelerationWindowS: windowS * Self.accelerationWindowFactor)

    // The fastest point of the rise itself: after the bar last sat in the
    // bottom of it (a paused bottom can hold bumps of its own).
    let lowLevel = (rise.valley.cm + Self.bottomShare * (rise.peak.cm - rise.valley.cm)) / 100
    var leftBottom = rise.valley.t
    for i in k.indices where k[i].t <= rise.peak.t && k[i].position <= lowLevel {
      leftBottom = max(leftBottom, k[i].t)
    }
    let searchFrom = leftBottom - windowS
    let searchTo = rise.peak.t + windowS
    var kPeak: Int? = nil
    for i in k.indices where k[i].t >= searchFrom && k[i].t <= searchTo {
      if kPeak == nil || k[i].velocity > k[kPeak!].velocity { kPeak = i }
    }
    guard let peakIndex = kPeak, k[peakIndex].velocity > 0 else { return nil }
    let peak = peakVelocity(samples, from: searchFrom, to: searchTo, windowS: windowS)
    let vPeak = peak.highest

    // A grinder can stall at its sticking point with the velocity near zero;
    // the phase ends at the top, so a stall below it is passed through by
    // searching again from the next push beyond it (and likewise for a
    // start above the bottom).
    let highLevel = (rise.peak.cm - Self.bottomShare * (rise.peak.cm - rise.valley.cm)) / 100
    guard
      var start = turnaround(k, from: peakIndex, step: -1, sign: 1, scale: vPeak),
      var end = turnaround(k, from: peakIndex, step: 1, sign: 1, scale: vPeak)
    else { return nil }
    var push = peakIndex
    for _ in 0..<Self.maxStalls {
      let stall = slowdown(k, from: push, step: 1, below: Self.rampLow * vPeak)
      guard position(samples, at: end) < highLevel,
        let next = fastest(k, after: k[stall].t, before: searchTo),
        let further = turnaround(k, from: next, step: 1, sign: 1, scale: vPeak), further > end
      else { break }
      end = further
      push = next
    }
    push = peakIndex
    for _ in 0..<Self.maxStalls {
      let stall = slowdown(k, from: push, step: -1, below: Self.rampLow * vPeak)
      guard position(samples, at: start) > lowLevel,
        let previous = fastest(k, after: searchFrom - windowS, before: k[stall].t),
        let earlier = turnaround(k, from: previous, step: -1, sign: 1, scale: vPeak),
        earlier < start
      else { break }
      start = earlier
      push = previous
    }
    guard end > start else { return nil }

    var bottom = position(samples, at: start)
    var top = position(samples, at: end)
    // Both ends again, from the readings of their ramps (TurnaroundFit).
    let romCm = (top - bottom) * 100
    let levelCm = bottom * 100
    // The start twice, like the lockout below: as two parabolas, which the
    // gates and the set's rules judge, and, out of a bounce over a floor
    // too noisy for the nearest fifth (`reversalMaxNoiseCm`), with its
    // ramp's jerk, which is reported (`TurnaroundFit`, a bounce's start);
    // out of rest on the floor, with its push building (`floorRestMaxCm`).
    var gatedStart = start
    var gatedBottom = bottom
    if let fit = fitTurnaround(
      samples, at: start, levelCm: levelCm, romCm: romCm, share: Self.startRampShare,
      bottom: true, accept: { $0.t < end })
    {
      gatedStart = fit.t
      gatedBottom = fit.cm / 100
      start = gatedStart
      bottom = gatedBottom
      if fit.before >= Self.reversalCurvatureCmPerS2, noiseCm > Self.reversalMaxNoiseCm,
        let jerk = fitTurnaround(
          samples, at: fit.t, levelCm: levelCm, romCm: romCm, share: Self.noisyBounceRampShare,
          bottom: true, braked: true, nearGuess: true, accept: { $0.t < end })
      {
        start = jerk.t
        bottom = jerk.cm / 100
      } else if fit.before < Self.reversalCurvatureCmPerS2, levelCm < Self.floorRestMaxCm,
        Self.readBuilding(samples, after: fit.t, levelCm: levelCm, romCm: romCm),
        let building = fitTurnaround(
          samples, at: fit.t, levelCm: levelCm, romCm: romCm, share: Self.startRampShare,
          bottom: true, builds: true, nearGuess: true, accept: { $0.t <= fit.t })
      {
        start = building.t
        bottom = building.cm / 100
      }
    }
    // The lockout twice: as two parabolas, which the plausibility gates
    // judge, and braked (`TurnaroundFit`'s jerk), which is reported. The
    // braked fit has one more free term: judged on it, a clip handled on
    // the hooks made a 0.164-s, 1.3-m/s "rep" that passed the gates
    // (`clipHandledOnTheHooksIsNoSetAndTheSquatsAfterItCount`).
    var gatedEnd = end
    var gatedTop = top
    if let fit = fitTurnaround(
      samples, at: end, levelCm: top * 100, romCm: romCm, bottom: false, braked: false,
      accept: { $0.t > gatedStart })
    {
      gatedEnd = fit.t
      gatedTop = fit.cm / 100
    }
    // Searched near the parabolas' lockout: a braked stop is found a few
    // tens of milliseconds before it, and searched over the whole window
    // (every 2 ms, with four passes over the readings each) `analyze` ran
    // the 60-minute stream at 2.3 M lines/s against 3.5 M without it.
    // Over a noisy floor, over the wide ramp (`noisyLockoutRampShare`).
    if let braked = fitTurnaround(
      samples, at: gatedEnd, levelCm: top * 100, romCm: romCm,
      share: noiseCm > Self.reversalMaxNoiseCm ? Self.noisyLockoutRampShare : Self.fitRampShare,
      bottom: false, braked: true, nearGuess: true, accept: { $0.t > start })
    {
      end = braked.t
      top = braked.cm / 100
    } else {
      end = gatedEnd
      top = gatedTop
    }
    let gatedRom = max(gatedTop - gatedBottom, 0)
    if reportsJudgedEnds {
      start = gatedStart
      bottom = gatedBottom
      end = gatedEnd
      top = gatedTop
    }
    // Each reported end is fitted near its gated one, not against the
    // other reported end: a start refitted later than a lockout so found
    // would measure nothing.
    guard end > start else { return nil }
    let judged = Judged(
      startS: ReportRounding.seconds(gatedStart),
      durationS: ReportRounding.seconds(gatedEnd) - ReportRounding.seconds(gatedStart),
      romCm: ReportRounding.centimetres(gatedRom * 100),
      meanVelocityMps: ReportRounding.metresPerSecond(gatedRom / (gatedEnd - gatedStart)))
    let rom = max(top - bottom, 0)
    let duration = end - start
    let mean = rom / duration

    // Peak acceleration and the end of the propulsive phase.
    var peakAcceleration = -Double.infinity
    var propulsiveEnd = end
    var foundBraking = false
    for i in k.indices where k[i].t >= start && k[i].t <= end {
      peakAcceleration = max(peakAcceleration, k[i].acceleration)
      if !foundBraking, i > peakIndex, k[i].acceleration < -Self.gravity {
        propulsiveEnd = k[i].t
        foundBraking = true
      }
    }
    if !peakAcceleration.isFinite { peakAcceleration = 0 }
    let propulsiveDuration = propulsiveEnd - start
    let meanPropulsive =
      propulsiveDuration > 0
      ? max(position(samples, at: propulsiveEnd) - bottom, 0) / propulsiveDuration : mean

    let driveT = start + Self.bottomDriveShare * duration
    let quarterVelocity = velocity(k, at: driveT)

    let stickingWindowS = Self.stickingWindowFactor * windowS
    let sticking =
      mean >= Self.maxStickingMeanVelocityMps
      ? nil
      : Self.stickingPoint(
        Self.concentricKinematics(
          samples, from: start, to: end, windowS: stickingWindowS, smoother: smoother),
        from: start, to: end,
        region: (bottomM: bottom, romM: rom),
        minDipMps: Self.stickingMinDipMps(
          noiseCm: noiseCm, windowS: stickingWindowS, durationS: end - start,
          meanVelocityMps: mean, samples))
    let stickingCm = sticking.map { (position(samples, at: $0.t) - bottom) * 100 }

    // Before both starts: a pull's start reported from its build lies
    // before the parabolas' (a dirty deadlift's descent "began" 0.06 s
    // after its reported start, SampleStreams deadlift-serial-dirty).
    let eccentricStart = eccentricStart(k, rise: rise, before: min(start, gatedStart))
    // Tilt is judged where it costs the lift: while the bar is driven up
    // (issue 8; a bar tips most while it is unracked and walked out).
    let tilt = attitude.maxAbs(in: start...end)

    let report = RepReport(
      index: index,
      concentricStartS: ReportRounding.seconds(start),
      concentricEndS: ReportRounding.seconds(end),
      romCm: ReportRounding.centimetres(rom * 100),
      meanVelocityMps: ReportRounding.metresPerSecond(mean),
      peakVelocityMps: ReportRounding.metresPerSecond(
        reportedPeak(
          quadratic: peakWindowS.map {
            peakVelocity(samples, from: searchFrom, to: searchTo, windowS: $0).vertex
          } ?? peak.vertex, mean: mean
        ) {
          cubicPeakVelocity(samples, from: searchFrom, to: searchTo)
        }),
      meanPropulsiveVelocityMps: ReportRounding.metresPerSecond(meanPropulsive),
      timeToPeakVelocityS: ReportRounding.seconds(max(k[peakIndex].t - start, 0)),
      peakAccelerationMps2: ReportRounding.metresPerSecondSquared(peakAcceleration),
      eccentricDurationS: eccentricStart.map { ReportRounding.seconds(start - $0) },
      stickingPointCm: stickingCm.map { ReportRounding.centimetres(max($0, 0)) },
      maxAbsPitchDeg: tilt.map { ReportRounding.degrees($0.pitch) },
      maxAbsRollDeg: tilt.map { ReportRounding.degrees($0.roll) })
    let analysis = RepAnalysis(
      report: report,
      quarterVelocityMps: quarterVelocity,
      propulsiveFraction: min(max(propulsiveDuration / duration, 0), 1),
      stickingDipFraction: sticking?.fraction)
    return Measured(
      analysis: analysis, eccentricStartS: eccentricStart, judged: judged,
      peakNoiseMps: Self.velocityNoise(
        noiseCm: noiseCm, windowS: peakWindowS ?? windowS,
        samples.filter { $0.t >= searchFrom && $0.t <= searchTo }))
  }

  /// One end of the concentric phase from the readings of its ramp: the
  /// turnaround fitted over `share` of the range and, where the
  /// other side turned out to be a reversal (`reversalCurvatureCmPerS2`),
  /// again over `reversalRampShare` (`bounceRampShare` at a bottom), near
  /// the first fit. Nil (the caller
  /// keeps the velocity's turnaround) when no fit is accepted.
  private func fitTurnaround(
    _ samples: [TimedHeight], at t: Double, levelCm: Double, romCm: Double,
    share: Double = fitRampShare, bottom: Bool, braked: Bool = false, builds: Bool = false,
    nearGuess: Bool? = nil, accept: (TurnaroundFit.Fit) -> Bool
  ) -> TurnaroundFit.Fit? {
    guard
      let wide = fitTurnaround(
        samples, at: t, levelCm: levelCm, shareCm: share * romCm, bottom: bottom,
        braked: braked, builds: builds, nearGuess: nearGuess ?? endsNearGuess),
      accept(wide)
    else { return nil }
    guard !builds, (bottom ? wide.before : -wide.after) >= Self.reversalCurvatureCmPerS2,
      noiseCm <= Self.reversalMaxNoiseCm,
      let near = fitTurnaround(
        samples, at: wide.t, levelCm: wide.cm,
        shareCm: (bottom ? Self.bounceRampShare : Self.reversalRampShare) * romCm,
        bottom: bottom, braked: braked, builds: false, nearGuess: true),
      accept(near)
    else { return wide }
    return near
  }

  /// The turnaround fitted from `fitRestS` beyond `t` to the first reading
  /// `shareCm` into the rep (after a bottom, before a top).
  ///
  /// A bottom's turnaround is not searched near the guess `t` where the
  /// readings between it and the ramp fall silent for longer than
  /// `silentGuessS`: the guess, walked back along a smoothed velocity that
  /// runs straight across the silence, lands at its start, and the bar
  /// may have left anywhere in it. The rest before the silence and the
  /// ramp after it place the start instead. A deadlift pull off the
  /// floor, its rest read as one value for 1.7 s, was timed from the
  /// silence's start, 1.39 s early, at 0.198 m/s (blind 7000074; fitted:
  /// 0.004 s early, 0.423 against its truth's 0.440). Blind looked-at:
  /// missed 201 → 200, exact sets 510 → 511, MV MAE 0.0377 → 0.0373;
  /// independent looked-at 12,000: 0.0331 → 0.0330, exact sets 32,360 →
  /// 32,359. The same for a top read out of a silence gave blind 512 and
  /// 0.0373, but fitted SampleStreams scenario-sensor-faults' third
  /// lockout at the silence's start, 0.18 s early (1.70 m/s against
  /// 0.905): a bar slowing into its lockout leaves no ramp after the
  /// silence to place it by.
  private func fitTurnaround(
    _ samples: [TimedHeight], at t: Double, levelCm: Double, shareCm: Double, bottom: Bool,
    braked: Bool, builds: Bool, nearGuess: Bool
  ) -> TurnaroundFit.Fit? {
    let unseen = Self.unseenRampShares * shareCm
    if bottom {
      guard let reach = samples.first(where: { $0.t > t && $0.cm >= levelCm + shareCm })
      else { return nil }
      let heard = Silence.longest(in: samples, over: t...reach.t).lengthS <= Self.silentGuessS
      return TurnaroundFit.fit(
        samples, in: (t - Self.fitRestS)...reach.t,
        guess: (nearGuess && heard) || reach.cm > levelCm + unseen ? t : nil, bottom: true,
        braked: braked, builds: builds)
    }
    guard let leave = samples.last(where: { $0.t < t && $0.cm <= levelCm - shareCm })
    else { return nil }
    return TurnaroundFit.fit(
      samples, in: leave.t...(t + Self.fitRestS),
      guess: nearGuess || leave.cm < levelCm - unseen ? t : nil, bottom: false,
      braked: braked, noiseCm: noiseCm)
  }

  /// Where the velocity, walking from `from` in direction `step`, stops
  /// having sign `sign` (the turnaround at either end of a phase): the ramp
  /// extrapolated to zero, or where no ramp can be fitted, the crossing.
  private func turnaround(_ k: [Kinematics], from: Int, step: Int, sign: Double, scale: Double)
    -> Double?
  {
    // A flat stretch fits to ±1e-15 m/s, not to zero: stop at a dead band.
    let still = Self.stillShare * scale
    // A start inside the dead band has no turnaround to walk to (a stall's
    // "next push" at 4e-16 m/s, beside a stuck sonar's straight bridge, put
    // the crossing at t = −2.5e14 s).
    guard sign * k[from].velocity > still else { return nil }
    var i = from
    while i + step >= 0, i + step < k.count, sign * k[i + step].velocity > still { i += step }
    let j = i + step
    // The samples end before the velocity does: the edge is the best we have.
    guard j >= 0, j < k.count else { return k[i].t }
    let vi = sign * k[i].velocity - still
    let vj = sign * k[j].velocity - still
    let crossing = k[i].t + (k[j].t - k[i].t) * vi / (vi - vj)
    return restTurnaround(k, from: from, step: step, sign: sign, scale: scale) ?? crossing
  }

  /// A turnaround out of (or into) rest, from the ramp between `rampLow`
  /// and `rampHigh` of the peak: the line through it, extrapolated to zero.
  /// A smoother spreads a ramp into the rest beside it but leaves a straight
  /// ramp straight, so the extrapolation carries no smoothing lag. (A
  /// quadratic fit, exact for a ramp that leaves zero tangentially, measured
  /// worse on every profile of the simulator: the ramp is too short at
  /// 15–40 Hz to fit a curvature.)
  private func restTurnaround(
    _ k: [Kinematics], from: Int, step: Int, sign: Double, scale: Double
  ) -> Double? {
    // At 15 Hz a brisk ramp may hold a single reading in the band: widen it
    // then, rather than fall back to a crossing smeared into the rest.
    for band in [(Self.rampLow, Self.rampHigh), (Self.rampLow / 2, Self.wideRampHigh)] {
      if let zero = rampZero(k, from: from, step: step, sign: sign, scale: scale, band: band) {
        return zero
      }
    }
    return nil
  }

  private func rampZero(
    _ k: [Kinematics], from: Int, step: Int, sign: Double, scale: Double,
    band: (low: Double, high: Double)
  ) -> Double? {
    var sx = 0.0
    var sy = 0.0
    var sxx = 0.0
    var sxy = 0.0
    var n = 0.0
    var t0: Double? = nil
    var m = from
    // From the peak toward the rest, until the velocity leaves the band.
    while m >= 0, m < k.count {
      let v = sign * k[m].velocity
      if v < band.low * scale { break }
      if v <= band.high * scale {
        let reference = t0 ?? k[m].t
        t0 = reference
        let x = k[m].t - reference
        sx += x
        sy += v
        sxx += x * x
        sxy += x * v
        n += 1
      }
      m += step
    }
    guard n >= 2, let reference = t0 else { return nil }
    let det = n * sxx - sx * sx
    guard abs(det) > 1e-12 else { return nil }
    let slope = (n * sxy - sx * sy) / det
    let intercept = (sy - slope * sx) / n
    // The ramp must fall toward the rest it leads to, and the zero lie
    // beyond it, near: otherwise it is noise, not a ramp.
    guard slope * Double(step) < -1e-9 else { return nil }
    let zero = -intercept / slope
    guard zero.isFinite, zero * Double(step) >= 0, abs(zero) <= windowS else { return nil }
    return reference + zero
  }

  /// The first sample, walking from `from`, where the upward velocity has
  /// fallen below `threshold` (or the last sample that way).
  private func slowdown(_ k: [Kinematics], from: Int, step: Int, below threshold: Double) -> Int {
    var i = from
    while i + step >= 0, i + step < k.count, k[i].velocity >= threshold { i += step }
    return i
  }

  /// The index of the fastest upward sample strictly between two times.
  private func fastest(_ k: [Kinematics], after from: Double, before to: Double) -> Int? {
    var best: Int? = nil
    for i in k.indices where k[i].t > from && k[i].t < to && k[i].velocity > 0 {
      if best == nil || k[i].velocity > k[best!].velocity { best = i }
    }
    return best
  }

  /// The peak velocity to report. No velocity curve peaks below its own
  /// mean: a cubic that reads lower held too few readings across the peak
  /// (a burst of garbage there), and the quadratic's stands; should that
  /// too fall short (the concentric ends were refitted on the readings,
  /// the quadratic on a window), the mean is the least the peak was.
  private func reportedPeak(quadratic: Double, mean: Double, cubic: () -> Double?) -> Double {
    let fromCubic = peakFromCubic ? cubic().flatMap { $0 >= mean ? $0 : nil } : nil
    return max(fromCubic ?? quadratic, mean)
  }

  /// The times at which a fit reaching `halfS` either side has readings
  /// on both: a rep is measured once its top has settled, and the newest
  /// readings then sit a fraction of a window past it. A local fit there
  /// holds only its older half, and its slope is an extrapolation whose
  /// noise is several times a whole window's: the fastest point of a
  /// noisy squat's curve was its very last reading (1.97 m/s for a 1.18
  /// m/s peak, AnalyzerTests). PV MAE on tune seeds 201–600 and the
  /// independent looked-at streams: 0.057 → 0.056 and 0.070 → 0.068 alone;
  /// with `noiseWindowSPerCm`, 0.056 → 0.055 and 0.066 → 0.061.
  /// Readings too few for any whole window: every time (as before).
  static func wholeWindows(_ samples: [TimedHeight], halfS: Double) -> (Double) -> Bool {
    guard let first = samples.first?.t, let last = samples.last?.t, last - first >= 2 * halfS
    else { return { _ in true } }
    return { $0 >= first + halfS && $0 <= last - halfS }
  }

  /// The highest upward velocity between `from` and `to` from the wider
  /// fit (the scale of the ramps and stalls), and the peak to report: the
  /// vertex of a parabola through the cubics' velocity curve
  /// (`peakCubicWindowFactor`) within `peakVertexShare` of the fit's
  /// window either side of that curve's highest point, never above it.
  private func peakVelocity(
    _ samples: [TimedHeight], from: Double, to: Double, windowS: Double
  ) -> (highest: Double, vertex: Double) {
    let wide = LocalFit.kinematics(
      of: samples, smoother: .localQuadratic, windowS: windowS * Self.peakWindowFactor,
      accelerationWindowS: windowS)
    let whole = Self.wholeWindows(samples, halfS: windowS * Self.peakWindowFactor / 2)
    var highest: Kinematics? = nil
    for k in wide where k.t >= from && k.t <= to && whole(k.t) {
      if k.velocity > (highest?.velocity ?? 0) { highest = k }
    }
    guard let highest else { return (0, 0) }
    // The peak itself from the cubics' curve (`peakCubicWindowFactor`),
    // near the quadratic's highest point; where a window holds too few
    // readings for a cubic, the quadratic's slope stands.
    let span = windowS * Self.peakWindowFactor * Self.peakVertexShare
    let cubicWindowS = windowS * Self.peakWindowFactor * Self.peakCubicWindowFactor
    let wholeCubic = Self.wholeWindows(samples, halfS: cubicWindowS / 2)
    let search = max(from, highest.t - span)...min(to, highest.t + span)
    guard
      let first = samples.firstIndex(where: { $0.t >= search.lowerBound - span }),
      let last = samples.lastIndex(where: { $0.t <= search.upperBound + span })
    else { return (highest.velocity, highest.velocity) }
    let curve = LocalFit.cubicVelocities(
      of: samples, first...last, windowS: cubicWindowS, minReadings: Self.peakCubicMinReadings
    ).map { TimedHeight(t: $0.t, cm: $0.velocity ?? wide[$0.index].velocity) }
    var top: TimedHeight? = nil
    for v in curve where search.contains(v.t) && wholeCubic(v.t) {
      if v.cm > (top?.cm ?? 0) { top = v }
    }
    guard let top else { return (highest.velocity, highest.velocity) }
    let near = curve.filter { abs($0.t - top.t) <= span }
    guard near.count >= Self.peakVertexMinPoints else { return (highest.velocity, top.cm) }
    let q = LocalFit.fit(near, 0...(near.count - 1), around: top.t, degree: 2)
    let x = -q.b / (2 * q.c)
    guard q.c < 0, abs(x) <= span else { return (highest.velocity, top.cm) }
    return (highest.velocity, min(top.cm, q.a + q.b * x + q.c * x * x))
  }

  /// The highest upward velocity between `from` and `to` from local
  /// cubics (`cubicPeakWindowS`), or nil when no window holds enough
  /// readings. Only the reported peak: the ramp thresholds keep the
  /// quadratic's, so the concentric phase's ends do not move.
  private func cubicPeakVelocity(_ samples: [TimedHeight], from: Double, to: Double) -> Double? {
    let half = Self.cubicPeakWindowS / 2
    var best: Double? = nil
    var lo = 0
    var hi = 0
    let whole = Self.wholeWindows(samples, halfS: half)
    for i in samples.indices where samples[i].t >= from && samples[i].t <= to {
      let t = samples[i].t
      guard whole(t) else { continue }
      while samples[lo].t < t - half { lo += 1 }
      hi = max(hi, i)
      while hi + 1 < samples.count, samples[hi + 1].t <= t + half { hi += 1 }
      // Widen toward the nearer reading until the window holds enough.
      var l = lo
      var h = hi
      while h - l + 1 < Self.cubicPeakMinReadings, l > 0 || h + 1 < samples.count {
        if l > 0, h + 1 >= samples.count || t - samples[l - 1].t <= samples[h + 1].t - t {
          l -= 1
        } else {
          h += 1
        }
      }
      guard h - l + 1 >= Self.cubicPeakMinReadings,
        let v = LocalFit.cubicSlope(samples, l...h, around: t)
      else { continue }
      best = max(best ?? 0, v / 100)
    }
    return best
  }

  /// The descent a rep's eccentric phase is is looked for from when the
  /// bar was last within this share of the range of its top: a top stood
  /// at for seconds (a bench press on the hooks, unracked and settled)
  /// may hold faster moves than the descent, and the fastest one was taken
  /// for it (the clip put back on the bar 9 s before the descent,
  /// independent looked-at 20117: the descent's tilt check then saw the
  /// clip in the hand and the set lost its first rep; 60072 likewise).
  /// A quarter of the range is still above the descent's fastest part, so
  /// the phase's start is walked back to from within it, as before.
  /// Looked-at (1,020 streams): missed reps 88 → 87 alone, 20117 with
  /// `TurnFinder.bottomPauseHysteresises`; tune 201–1000 unchanged.
  static let descentTopShare = 0.25

  private func eccentricStart(_ k: [Kinematics], rise: TurnFinder.Rise, before start: Double)
    -> Double?
  {
    guard let top = rise.previousPeak else { return nil }
    let highM = (top.cm - Self.descentTopShare * (top.cm - rise.valley.cm)) / 100
    let leftTopT = k.last { $0.t <= start && $0.position >= highM }?.t ?? top.t
    let from = max(top.t, leftTopT) - windowS
    var kMin: Int? = nil
    for i in k.indices where k[i].t >= from && k[i].t <= start {
      if kMin == nil || k[i].velocity < k[kMin!].velocity { kMin = i }
    }
    guard let minIndex = kMin, k[minIndex].velocity < 0 else { return nil }
    guard let t = turnaround(k, from: minIndex, step: -1, sign: -1, scale: -k[minIndex].velocity),
      t < start
    else { return nil }
    return t
  }

  /// The kinematics over `windowS` of the readings from one window before
  /// `start` to one after `end` (and one reading beyond each: a window
  /// holding a single reading reaches to its neighbour): the same, inside
  /// the concentric phase, as over all the readings, for a fraction of the
  /// work.
  static func concentricKinematics(
    _ samples: [TimedHeight], from start: Double, to end: Double, windowS: Double,
    smoother: AnalyzerConfiguration.Smoother
  ) -> [Kinematics] {
    let first = samples.firstIndex { $0.t >= start - windowS } ?? samples.endIndex
    let last = samples.lastIndex { $0.t <= end + windowS } ?? samples.startIndex
    let from = max(first - 1, samples.startIndex)
    let through = min(last + 1, samples.endIndex - 1)
    guard from < through else { return [] }
    return LocalFit.kinematics(
      of: Array(samples[from...through]), smoother: smoother, windowS: windowS,
      accelerationWindowS: windowS * accelerationWindowFactor)
  }

  /// The deepest valley of the drive's velocity: each point's depth is the
  /// lesser of how far it lies below the fastest velocity before it and the
  /// fastest after it (the valley's prominence), so the dip is measured
  /// from the burst, not from the first local maximum. On a velocity read
  /// through noise, that first maximum is often a wiggle on the way up: a
  /// deadlift's drive wiggled at 0.50 m/s on its way to 0.63, dipped to
  /// 0.39 and recovered to 0.56; from the wiggle the dip was 0.11 m/s,
  /// under the least dip (0.13), and missed; from the burst, 0.17
  /// (independent looked-at 1500007). Over a quiet clip a wiggle's own
  /// dip could be named instead (independent looked-at streams: found
  /// on 35.5 → 40.4 % of reps with one, claimed on 1.2 → 1.4 % without,
  /// claims right 86.2 → 85.1 %; BENCHMARKS, fifty-second pass). Given
  /// the rep's `region` (its bottom and range, in metres), only valleys
  /// within `stickingRegionShares` of it count.
  static func stickingPoint(
    _ k: [Kinematics], from start: Double, to end: Double,
    region: (bottomM: Double, romM: Double)? = nil,
    minDipMps: Double = stickingDipMps
  )
    -> (t: Double, fraction: Double)?
  {
    let inside = k.filter { $0.t > start && $0.t < end }
    guard inside.count >= 5 else { return nil }
    var fastestAfter = [Double](repeating: -.infinity, count: inside.count + 1)
    for j in inside.indices.reversed() {
      fastestAfter[j] = max(fastestAfter[j + 1], inside[j].velocity)
    }
    var fastestBefore = -Double.infinity
    var deepest: (t: Double, depth: Double, burst: Double)?
    for j in inside.indices {
      let v = inside[j].velocity
      defer { fastestBefore = max(fastestBefore, v) }
      // A "burst" slower than the dip a sticking point needs is the bar
      // still leaving the bottom (at 1e-18 m/s, a noise wiggle, it made a
      // dip of 5e17 %).
      guard j > 0, j < inside.count - 1, fastestBefore >= minDipMps else { continue }
      let depth = min(fastestBefore - v, fastestAfter[j + 1] - v)
      guard depth >= minDipMps, depth >= Self.stickingDipFraction * fastestBefore,
        depth > (deepest?.depth ?? 0),
        region.map({ stickingRegionShares.contains((inside[j].position - $0.bottomM) / $0.romM) })
          ?? true
      else { continue }
      deepest = (inside[j].t, depth, fastestBefore)
    }
    // A stall that sinks back is a dip of all of the burst, not more.
    return deepest.map { ($0.t, min($0.depth / $0.burst, 1)) }
  }

  private func velocity(_ k: [Kinematics], at t: Double) -> Double {
    guard let j = k.firstIndex(where: { $0.t >= t }) else { return k.last?.velocity ?? 0 }
    guard j > 0 else { return k[0].velocity }
    let a = k[j - 1]
    let b = k[j]
    let f = b.t > a.t ? (t - a.t) / (b.t - a.t) : 0
    return a.velocity + f * (b.velocity - a.velocity)
  }

  /// Height in metres at time t: a local quadratic fit of the raw samples,
  /// unbiased at a turnaround where a moving average is lifted by a·W²/24.
  private func position(_ s: [TimedHeight], at t: Double) -> Double {
    let half = windowS / 2
    guard let lo = s.firstIndex(where: { $0.t >= t - half }),
      let hi = s.lastIndex(where: { $0.t <= t + half }), hi >= lo
    else {
      let nearest = s.min(by: { abs($0.t - t) < abs($1.t - t) })!
      return nearest.cm / 100
    }
    return LocalFit.fit(s, lo...hi, around: t, degree: 2).a / 100
  }
}
