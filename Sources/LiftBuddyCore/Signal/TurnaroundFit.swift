/// Where a turnaround is, from every reading around it: the heights are
/// fitted with two parabolas that meet, flat, at the turnaround,
///
///     h(t) = c + ½·a₁·min(0, t − τ)² + ½·a₂·max(0, t − τ)²,
///
/// for each candidate τ (a grid), and the τ with the least squared error
/// wins. One shape covers the ways a rep starts and ends: out of rest
/// (a₁ = 0: a paused bottom, a deadlift off the floor, a held lockout), a
/// bounce (a₁ ≈ a₂: touch-and-go), a descent braked into a drive. The
/// readings themselves are fitted, not a smoothed velocity, so a fast rep's
/// short ramp is not spread by a window. Measured on the tune split (seeds
/// 1–24, 216 streams): mean-velocity MAE 0.043 → 0.034 m/s, bias −0.005 →
/// −0.001, and the speed dependence gone (fast reps −0.022 → −0.007, slow
/// +0.012 → +0.009). Parabolas beat steeper powers (2.5, 3: −0.02 to −0.11
/// m/s): the shape of a start is closer to constant acceleration.
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
  /// and before a top (a₁ < 0). Nil when the readings cannot place it.
  static func fit(
    _ samples: [TimedHeight], in window: ClosedRange<Double>, guess: Double?, bottom: Bool
  ) -> Fit? {
    guard let lo = samples.firstIndex(where: { $0.t >= window.lowerBound }),
      let hi = samples.lastIndex(where: { $0.t <= window.upperBound }),
      hi - lo + 1 >= minReadings
    else { return nil }
    let points = samples[lo...hi]
    var best: (sse: Double, fit: Fit)? = nil
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
    for step in 0...steps {
      let tau = first + Double(step) * stepS
      if let (fit, sse) = solve(points, tau: tau, bottom: bottom),
        bottom ? fit.after > 0 : fit.before < 0,
        best == nil || sse < best!.sse
      {
        best = (sse, fit)
      }
    }
    return best?.fit
  }

  /// Least squares for (c, a₁, a₂) at a fixed τ: a 3×3 normal system. It
  /// runs for every reading at every grid step, so nothing in it touches
  /// the heap (inline arrays; `m` is row-major).
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
  private static func solve(_ points: ArraySlice<TimedHeight>, tau: Double, bottom: Bool)
    -> (Fit, Double)?
  {
    // Basis: 1, ½·min(0, t−τ)², ½·max(0, t−τ)².
    var m = InlineArray<9, Double>(repeating: 0)
    var v = InlineArray<3, Double>(repeating: 0)
    for p in points {
      let d = p.t - tau
      let b: InlineArray<3, Double> = [1.0, d < 0 ? 0.5 * d * d : 0, d > 0 ? 0.5 * d * d : 0]
      for i in 0..<3 {
        v[i] += b[i] * p.cm
        for j in 0..<3 { m[3 * i + j] += b[i] * b[j] }
      }
    }
    // Both sides need readings, or that side's curvature is free.
    guard m[4] > 1e-9, m[8] > 1e-9, var x = solve3(m, v) else { return nil }
    // Where the free fit breaks either sign (the rep side must rise from
    // a bottom or into a top), the constrained optimum holds the other
    // side flat.
    if bottom ? x[1] < 0 || x[2] <= 0 : x[2] > 0 || x[1] >= 0 {
      // The other side flat: (c, rep side's a) from the 2×2 system.
      let r = bottom ? 2 : 1
      let det = m[0] * m[4 * r] - m[r] * m[r]
      guard abs(det) > 1e-12 else { return nil }
      x[0] = (v[0] * m[4 * r] - m[r] * v[r]) / det
      x[r] = (m[0] * v[r] - m[r] * v[0]) / det
      x[3 - r] = 0
    }
    var sse = 0.0
    for p in points {
      let d = p.t - tau
      let h = x[0] + (d < 0 ? 0.5 * x[1] * d * d : 0.5 * x[2] * d * d)
      sse += (p.cm - h) * (p.cm - h)
    }
    return (Fit(t: tau, cm: x[0], before: x[1], after: x[2]), sse)
  }

  /// Gaussian elimination with partial pivoting.
  private static func solve3(_ a: InlineArray<9, Double>, _ b: InlineArray<3, Double>)
    -> InlineArray<3, Double>?
  {
    var m = a
    var y = b
    for col in 0..<3 {
      var pivot = col
      for r in (col + 1)..<3 where abs(m[3 * r + col]) > abs(m[3 * pivot + col]) { pivot = r }
      guard abs(m[3 * pivot + col]) > 1e-12 else { return nil }
      if pivot != col {
        for c in 0..<3 {
          let t = m[3 * col + c]
          m[3 * col + c] = m[3 * pivot + c]
          m[3 * pivot + c] = t
        }
        let t = y[col]
        y[col] = y[pivot]
        y[pivot] = t
      }
      for r in (col + 1)..<3 {
        let f = m[3 * r + col] / m[3 * col + col]
        for c in col..<3 { m[3 * r + c] -= f * m[3 * col + c] }
        y[r] -= f * y[col]
      }
    }
    var x = InlineArray<3, Double>(repeating: 0)
    for r in stride(from: 2, through: 0, by: -1) {
      var s = y[r]
      for c in (r + 1)..<3 { s -= m[3 * r + c] * x[c] }
      x[r] = s / m[3 * r + r]
    }
    return x
  }
}
