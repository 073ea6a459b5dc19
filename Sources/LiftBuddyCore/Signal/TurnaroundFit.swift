/// Where a turnaround is, from every reading around it: the heights are
/// fitted with two parabolas that meet, flat, at the turnaround,
///
///     h(t) = c + ½·a₁·min(0, t − τ)² + ½·a₂·max(0, t − τ)²,
///
/// for each candidate τ (a grid), and the τ with the least squared error
/// wins (a bent side away from the rep charged for its term:
/// `sidePenaltyVariances`). One shape covers the ways a rep starts and ends: out of rest
/// (a₁ = 0: a paused bottom, a deadlift off the floor, a held lockout), a
/// bounce (a₁ ≈ a₂: touch-and-go), a descent braked into a drive. The
/// readings themselves are fitted, not a smoothed velocity, so a fast rep's
/// short ramp is not spread by a window. Measured on the tune split (seeds
/// 1–24, 216 streams): mean-velocity MAE 0.043 → 0.034 m/s, bias −0.005 →
/// −0.001, and the speed dependence gone (fast reps −0.022 → −0.007, slow
/// +0.012 → +0.009). Parabolas beat steeper powers (2.5, 3: −0.02 to −0.11
/// m/s): the shape of a start is closer to constant acceleration.
///
/// A lockout can also be fitted `braked`: a jerk term ⅙·j·min(0, t − τ)³,
/// j ≤ 0, on its ramp. The parabolas decelerate evenly into the stop and
/// placed a lockout braked hardest at the stop late, so light lifts read
/// slow: the real presses −0.019 m/s, the independent streams −0.027
/// (very fast reps −0.075). Braked: −0.003 and −0.007 (BENCHMARKS.md,
/// seventeenth pass).
///
/// A bounce's start likewise (a jerk term ⅙·j·max(0, t − τ)³, j ≤ 0): a
/// drive out of the bottom pushes hardest at the bounce and less as the
/// bar speeds up (the force–velocity relation), so its acceleration falls
/// along the ramp, and a parabola over 40 % of the range takes that for a
/// slower, earlier start. Where the floor is quiet the nearest fifth of
/// the range places the bounce (`RepMeasurer.reversalRampShare`); over a
/// noisier one the measurer fits the wide ramp with the jerk
/// (`RepMeasurer.reversalMaxNoiseCm`). Independent looked-at streams
/// (1,020): MV bias −0.010 → −0.002 m/s, MAE 0.042 both; the three
/// independent held-out sets' bias −0.011/−0.009/−0.011 →
/// −0.004/−0.003/−0.002, MAE 0.035/0.039/0.040 → 0.035/0.038/0.040
/// (BENCHMARKS.md, thirty-second pass). Starts out of rest stay parabolas:
/// a force that builds up from rest is the opposite shape, and the jerk
/// placed them late (a deadlift off the floor +0.03 → +0.08 s).
///
/// That opposite shape is fitted too (`builds`: the jerk held at or above
/// zero, the side before the start held flat): a pull off the floor,
/// where the lifter's force builds through the slack and the bar bends
/// before the plates under the clip leave the floor, so the sleeve's
/// speed leaves zero slower than a parabola's (`RepMeasurer.floorRestMaxCm`).
enum TurnaroundFit {
  /// The grid: every `stepS` across the window's readings, or ±`searchS`
  /// around a guess. 2 ms is a tenth of a 20 Hz period; ±0.12 s covers the
  /// ramp method's worst misses. A fast rep's ends are searched over the
  /// whole window (`RepMeasurer`): its guess, from a smoothed velocity,
  /// is dragged by the window and across any gap in the readings (a
  /// lockout hidden by a stuck sonar was guessed 0.5 s late, out of reach
  /// of ±0.12 s).
  static let searchS = 0.12
  static let stepS = 0.002
  /// No turnaround's window is longer: the measurer fits at most
  /// `RepMeasurer.fitRestS` of rest and part of a ramp of at most
  /// `RepMeasurer.maxConcentricS`.
  static let maxSpanS = 2 * RepMeasurer.maxConcentricS
  /// Enough readings to fit three numbers with noise to spare.
  static let minReadings = 6

  struct Fit: Equatable, Sendable {
    var t: Double
    /// Height at the turnaround, in cm.
    var cm: Double
    /// Curvatures before and after (cm/s²).
    var before: Double
    var after: Double
  }

  /// Fits the readings in `window` (by time), the turnaround anywhere
  /// between its first and last reading or, with a `guess`, near it.
  /// `bottom` says which turnaround: the bar rises after a bottom (a₂ > 0)
  /// and before a top (a₁ < 0). `braked` lets a top's ramp brake harder
  /// toward the stop, and a bottom's drive ease off from it (the jerk
  /// term of `solve`). `builds`, for a bottom out of rest instead, lets the
  /// drive's push grow from it (`solveBuilding`). `noiseCm`, the readings'
  /// noise, charges a bent side away from the rep (`sidePenaltyVariances`);
  /// nil charges nothing. Nil when the readings cannot place it.
  static func fit(
    _ samples: [TimedHeight], in window: ClosedRange<Double>, guess: Double?, bottom: Bool,
    braked: Bool = false, builds: Bool = false, noiseCm: Double? = nil
  ) -> Fit? {
    let penalty =
      noiseCm.map { sidePenaltyVariances * max($0, minNoiseCm) * max($0, minNoiseCm) } ?? 0
    guard let lo = samples.firstIndex(where: { $0.t >= window.lowerBound }),
      let hi = samples.lastIndex(where: { $0.t <= window.upperBound }),
      hi - lo + 1 >= minReadings
    else { return nil }
    let points = samples[lo...hi]
    // The grid is counted, not stepped to a bound: a τ far from zero (a
    // wild guess) would not move by adding 2 ms, and the loop never end.
    // A guess outside the readings places nothing, and neither do readings
    // whose times run backwards or span more than any turnaround's window
    // (a garbled stream's: the fuzzer's 1e16 s among seconds).
    let from = points.first!.t
    let to = points.last!.t
    if let guess, !(guess >= from && guess <= to) { return nil }
    let first = guess.map { $0 - searchS } ?? from
    let last = guess.map { $0 + searchS } ?? to
    guard last - first >= 0, last - first <= maxSpanS else { return nil }
    let steps = Int(((last - first) / stepS).rounded(.down))
    guard
      let best = search(
        points, first: first, steps: steps, bottom: bottom, braked: braked, builds: builds,
        penalty: penalty)
    else { return nil }
    // Once more without the readings the fit says are not the bar's.
    let residuals = points.map { $0.cm - value(best, at: $0.t) }
    let limit = max(minOutlierCm, outlierSigmas * robustSigma(residuals))
    guard residuals.contains(where: { abs($0) > limit }) else { return best.fit }
    let kept = zip(points, residuals).filter { abs($0.1) <= limit }.map(\.0)
    guard kept.count >= minReadings,
      let again = search(
        kept[...], first: first, steps: steps, bottom: bottom, braked: braked, builds: builds,
        penalty: penalty)
    else { return best.fit }
    return again.fit
  }

  /// Readings further than this from the fit, in its residuals' robust
  /// deviation (1.4826 × the median absolute residual), are a sonar's
  /// strays that the gate let through, one or two beside a turnaround
  /// (a run long enough to bend the parabolas through it is the gate's
  /// to refuse, `TrackGate`): the fit is made again without them. Never
  /// nearer than the gate's own margin (`TrackGate.marginCm`): a whole-cm
  /// clip at rest has residuals of a few millimetres, and its quantisation
  /// is no stray.
  /// Independent looked-at 20000–20119: ROM MAE 1.19 → 1.16 cm (the worst
  /// stream, a dirty touch-and-go bench, 4.91 → 3.48), one rep more missed
  /// there; tune 201–600 totals unchanged.
  static let outlierSigmas = 4.0
  /// The side away from the rep may bend (a lockout left for the next
  /// descent), but held to that one sign, noise bends it there: the rest
  /// after a lockout fitted a downward curvature that raised the lockout's
  /// level and placed it late (independent looked-at lockouts +0.013 s,
  /// dirty streams +0.036). Given the readings' noise (`fit`'s
  /// `noiseCm`), a bent side is kept only where it lowers the squared
  /// residual by more than this many of the noise's variances (Akaike's
  /// criterion: two per term), and the search compares the fits so
  /// charged. The measurer tells the noise to its lockout fits only:
  /// charged at starts alone it gained nothing (independent looked-at ROM
  /// MAE 1.03), and charged at both ends both held-out sets read a rep
  /// more invented. Tune 201–600
  /// (lockouts only): ROM MAE 0.70 cm either way, missed 213 → 211;
  /// independent looked-at ROM 1.04 → 1.01 cm, MV 0.042 → 0.041 m/s; 4
  /// and 8 variances gave the same within 0.01 cm and 0.001 m/s.
  static let sidePenaltyVariances = 2.0
  /// The least noise the penalty assumes: a whole-centimetre clip's
  /// quantisation (1/√12 cm).
  static let minNoiseCm = 0.29
  static let minOutlierCm = TrackGate.marginCm

  /// 1.4826 × the median absolute value: the standard deviation of normal
  /// residuals, unmoved by the strays among them.
  private static func robustSigma(_ residuals: [Double]) -> Double {
    let sorted = residuals.map(abs).sorted()
    guard !sorted.isEmpty else { return 0 }
    let mid = sorted.count / 2
    let median = sorted.count % 2 == 1 ? sorted[mid] : 0.5 * (sorted[mid - 1] + sorted[mid])
    return 1.4826 * median
  }

  /// A fitted turnaround and its coefficients, for the residuals.
  private struct Solved {
    var fit: Fit
    var sse: Double
    var terms: InlineArray<4, Double>
    var bottom: Bool
  }

  /// The least-squares τ over the grid `first + k·stepS`, k = 0…steps.
  private static func search(
    _ points: ArraySlice<TimedHeight>, first: Double, steps: Int, bottom: Bool, braked: Bool,
    builds: Bool, penalty: Double
  ) -> Solved? {
    var best: Solved? = nil
    for step in 0...steps {
      let tau = first + Double(step) * stepS
      if let solved =
        builds && bottom
        ? solveBuilding(Moments(points, tau: tau, bottom: true), tau: tau)
        : solve(points, tau: tau, bottom: bottom, braked: braked, penalty: penalty),
        bottom ? solved.fit.after > 0 || solved.terms[3] > 0 : solved.fit.before < 0,
        best == nil || solved.sse < best!.sse
      {
        best = solved
      }
    }
    return best
  }

  /// The fitted height at `t`.
  private static func value(_ solved: Solved, at t: Double) -> Double {
    let d = t - solved.fit.t
    let x = solved.terms
    let before = min(0, d)
    let after = max(0, d)
    let ramp = solved.bottom ? after : before
    return x[0] + 0.5 * x[1] * before * before + 0.5 * x[2] * after * after
      + x[3] * ramp * ramp * ramp / 6
  }

  /// Which basis functions a fit uses (the rest held at zero): 0 is 1,
  /// 1 and 2 are ½·min(0, d)² and ½·max(0, d)², 3 is ⅙·min(0, d)³ (the
  /// braking jerk on a top's ramp), d = t − τ.
  private struct Terms {
    var index: InlineArray<4, Int>
    var count: Int
    init(_ a: Int, _ b: Int, _ c: Int? = nil, _ d: Int? = nil) {
      index = [a, b, c ?? 0, d ?? 0]
      count = c == nil ? 2 : d == nil ? 3 : 4
    }
  }

  /// The sums every fit at one τ is solved from, in one pass over the
  /// readings (the fits at a τ differ only in which terms they use): the
  /// basis functions' products, their products with the heights, and the
  /// heights' squares, for the residual. Heights are taken from the first
  /// reading's, so that the squares keep their precision.
  private struct Moments {
    /// Row-major 4×4, symmetric.
    var m = InlineArray<16, Double>(repeating: 0)
    var v = InlineArray<4, Double>(repeating: 0)
    var yy = 0.0
    let offset: Double

    init(_ points: ArraySlice<TimedHeight>, tau: Double, bottom: Bool) {
      offset = points.first?.cm ?? 0
      for p in points {
        let d = p.t - tau
        let y = p.cm - offset
        yy += y * y
        m[0] += 1
        v[0] += y
        guard d < 0 || d > 0 else { continue }
        // Term 1 or 2 by the side the reading is on; term 3, the jerk, on
        // the ramp's side only (before a top, after a bottom).
        let side = d < 0 ? 1 : 2
        let q = 0.5 * d * d
        m[side] += q
        m[5 * side] += q * q
        v[side] += q * y
        if (d > 0) == bottom {
          let c = q * d / 3
          m[3] += c
          m[4 * side + 3] += q * c
          m[15] += c * c
          v[3] += c * y
        }
      }
      m[4] = m[1]
      m[8] = m[2]
      m[12] = m[3]
      m[13] = m[7]
      m[14] = m[11]
    }

    /// The least-squares coefficients of `use` (the others zero), or nil
    /// when the readings do not determine them.
    func fit(_ use: Terms) -> InlineArray<4, Double>? {
      var a = InlineArray<16, Double>(repeating: 0)
      var b = InlineArray<4, Double>(repeating: 0)
      for i in 0..<use.count {
        b[i] = v[use.index[i]]
        for j in 0..<use.count { a[4 * i + j] = m[4 * use.index[i] + use.index[j]] }
      }
      guard let y = TurnaroundFit.solve(a, b, use.count) else { return nil }
      var x = InlineArray<4, Double>(repeating: 0)
      for i in 0..<use.count { x[use.index[i]] = y[i] }
      return x
    }

    /// The squared residual of `x`: Σy² − 2·xᵀv + xᵀMx.
    func sse(_ x: InlineArray<4, Double>) -> Double {
      var sum = yy
      for i in 0..<4 {
        sum -= 2 * x[i] * v[i]
        for j in 0..<4 { sum += x[i] * m[4 * i + j] * x[j] }
      }
      return sum
    }
  }

  /// Least squares for the curvatures (and a top's braking jerk) at a fixed
  /// τ: a normal system of at most 4×4. It runs for every reading at every
  /// grid step, so nothing in it touches the heap (inline arrays, row-major).
  ///
  /// The side away from the rep is a rest or the other phase, and either
  /// way the bar there is not moving toward the rep: before a bottom it
  /// comes down or stands (a₁ ≥ 0), after a top it stands or goes down
  /// (a₂ ≤ 0). A free curvature of the other sign fits the first readings
  /// of the ramp instead (a bar rising into its own start), which over a
  /// noisy floor pulled both ends into the rep; there the side is held
  /// flat. Measured (BENCHMARKS.md, eighth pass) on tune seeds 1–40: ROM
  /// MAE 0.91 → 0.85 cm, MV 0.0383 → 0.0380 m/s, soft-floor lockouts
  /// −0.020 → −0.008 s and its MV 0.060 → 0.057; on tune seeds 201–320,
  /// never tuned on: ROM 0.91 → 0.85, MV 0.0387 → 0.0379.
  ///
  /// A braked top's jerk j is held at or below zero, so its ramp decelerates
  /// hardest at the stop, never least (the velocity, as a function of
  /// d ≤ 0, is a₁·d + ½·j·d²): a bar braked by the lifter into lockout
  /// (Sánchez-Medina & González-Badillo 2010: the braking phase of a light
  /// lift ends with the bar decelerating faster than gravity). A positive
  /// jerk, a bar creeping to a stop, is the parabola's case already. A
  /// bottom's jerk (on d ≥ 0) is held at or below zero too: the drive
  /// accelerates hardest at the bounce.
  private static func solve(
    _ points: ArraySlice<TimedHeight>, tau: Double, bottom: Bool, braked: Bool, penalty: Double
  ) -> Solved? {
    let sums = Moments(points, tau: tau, bottom: bottom)
    // Both sides need readings, or that side's curvature is free.
    guard sums.m[5] > 1e-9, sums.m[10] > 1e-9 else { return nil }
    var x: InlineArray<4, Double>
    if braked {
      guard let free = sums.fit(Terms(0, 1, 2, 3)) else { return nil }
      x = free
      if x[3] > 0 {
        guard let parabolas = sums.fit(Terms(0, 1, 2)) else { return nil }
        x = parabolas
      }
    } else {
      guard let parabolas = sums.fit(Terms(0, 1, 2)) else { return nil }
      x = parabolas
    }
    // Where the free fit breaks either sign (the rep side must rise from
    // a bottom or into a top), the constrained optimum holds the other
    // side flat.
    if bottom ? x[1] < 0 || x[2] <= 0 : x[2] > 0 || x[1] >= 0 {
      let flat = ramp(bottom, jerk: braked && x[3] < 0)
      guard let held = sums.fit(flat) else { return nil }
      x = held
      if braked, x[3] > 0 {
        guard let parabola = sums.fit(ramp(bottom, jerk: false)) else { return nil }
        x = parabola
      }
    }
    var sse = sums.sse(x)
    // A bent side away from the rep is kept only if it pays its penalty.
    if penalty > 0, bottom ? x[1] != 0 : x[2] != 0 {
      sse += penalty
      let flat = ramp(bottom, jerk: braked && x[3] < 0)
      if var held = sums.fit(flat), bottom ? held[2] > 0 : held[1] < 0 {
        if braked, held[3] > 0, let parabola = sums.fit(ramp(bottom, jerk: false)) {
          held = parabola
        }
        let heldSse = sums.sse(held)
        if heldSse <= sse {
          x = held
          sse = heldSse
        }
      }
    }
    x[0] += sums.offset
    return Solved(
      fit: Fit(t: tau, cm: x[0], before: x[1], after: x[2]), sse: sse, terms: x, bottom: bottom)
  }

  /// A start out of rest whose push grows from it: the rest before held
  /// flat, the ramp's curvature and jerk both at or above zero (the bar's
  /// velocity after τ, a₂·d + ½·j·d², never falls back toward zero as it
  /// leaves). Where the free fit breaks a sign, the constrained optimum
  /// lies on an edge: the parabola (j = 0) or the pure cubic (a₂ = 0),
  /// whichever fits better.
  private static func solveBuilding(_ sums: Moments, tau: Double) -> Solved? {
    // Both sides need readings: the rest's level and the ramp's shape.
    guard sums.m[5] > 1e-9, sums.m[10] > 1e-9 else { return nil }
    var best: (x: InlineArray<4, Double>, sse: Double)? = nil
    for terms in [Terms(0, 2, 3), Terms(0, 2), Terms(0, 3)] {
      guard let x = sums.fit(terms), x[2] >= 0, x[3] >= 0 else { continue }
      let sse = sums.sse(x)
      if best == nil || sse < best!.sse { best = (x, sse) }
    }
    guard var x = best?.x, let sse = best?.sse else { return nil }
    x[0] += sums.offset
    return Solved(
      fit: Fit(t: tau, cm: x[0], before: 0, after: x[2]), sse: sse, terms: x, bottom: true)
  }

  /// The terms of a fit whose side away from the rep is held flat: the
  /// level and the ramp's curvature, and its jerk if `jerk`.
  private static func ramp(_ bottom: Bool, jerk: Bool) -> Terms {
    bottom ? (jerk ? Terms(0, 2, 3) : Terms(0, 2)) : (jerk ? Terms(0, 1, 3) : Terms(0, 1))
  }

  /// Gaussian elimination with partial pivoting on the leading n×n block
  /// of a row-major 4×4 matrix.
  private static func solve(_ a: InlineArray<16, Double>, _ b: InlineArray<4, Double>, _ n: Int)
    -> InlineArray<4, Double>?
  {
    var m = a
    var y = b
    for col in 0..<n {
      var pivot = col
      for r in (col + 1)..<n where abs(m[4 * r + col]) > abs(m[4 * pivot + col]) { pivot = r }
      guard abs(m[4 * pivot + col]) > 1e-12 else { return nil }
      if pivot != col {
        for c in 0..<n {
          let t = m[4 * col + c]
          m[4 * col + c] = m[4 * pivot + c]
          m[4 * pivot + c] = t
        }
        let t = y[col]
        y[col] = y[pivot]
        y[pivot] = t
      }
      for r in (col + 1)..<n {
        let f = m[4 * r + col] / m[4 * col + col]
        for c in col..<n { m[4 * r + c] -= f * m[4 * col + c] }
        y[r] -= f * y[col]
      }
    }
    var x = InlineArray<4, Double>(repeating: 0)
    for r in stride(from: n - 1, through: 0, by: -1) {
      var s = y[r]
      for c in (r + 1)..<n { s -= m[4 * r + c] * x[c] }
      x[r] = s / m[4 * r + r]
    }
    return x
  }
}
