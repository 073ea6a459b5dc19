/// Position, velocity and acceleration of the bar at one sample, from a
/// least-squares fit over the samples around it.
struct Kinematics: Equatable, Sendable {
  var t: Double
  /// Metres above the floor (converted from the sonar's centimetres).
  var position: Double
  /// m/s, upward positive.
  var velocity: Double
  /// m/s².
  var acceleration: Double
}

/// Smoothing and differentiation over a centred window of samples with
/// irregular times: the moving average (the clip's original method) or a
/// local quadratic fit (Savitzky–Golay generalised to uneven spacing).
///
/// Used on the buffered samples of one rep once the rep is confirmed, so the
/// window can be centred (no lag) and derivatives need no finite differences
/// of already-smoothed data.
enum LocalFit {
  /// Fits every sample of `samples` (seconds, centimetres) and returns
  /// kinematics in SI units. The acceleration always comes from a quadratic
  /// fit over `accelerationWindowS`, because the moving average has no
  /// second derivative of its own.
  static func kinematics(
    of samples: [TimedHeight], smoother: AnalyzerConfiguration.Smoother, windowS: Double,
    accelerationWindowS: Double
  ) -> [Kinematics] {
    var out: [Kinematics] = []
    out.reserveCapacity(samples.count)
    var lo = 0
    var hi = 0
    var loA = 0
    var hiA = 0
    let half = windowS / 2
    let halfA = accelerationWindowS / 2
    for i in samples.indices {
      let t = samples[i].t
      while samples[lo].t < t - half { lo += 1 }
      while hi + 1 < samples.count, samples[hi + 1].t <= t + half { hi += 1 }
      while samples[loA].t < t - halfA { loA += 1 }
      while hiA + 1 < samples.count, samples[hiA + 1].t <= t + halfA { hiA += 1 }
      // A window holding one reading (a sonar answering every other ping,
      // a dropout) has no slope, and read as 0 m/s it is a stop the bar
      // never made: a slow pull's lockout was put a third of the way up
      // and the rep lost (`SparseReadingsTests`). Its slope reaches back
      // to the reading before (the first reading, on to the next): a
      // secant, which passes through the reading, so the position stays
      // the reading's. Every window widened to three readings counted
      // more reps but invented more (independent looked-at: 27 reps
      // invented and two false sets more, against 2 more and one false
      // set fewer).
      let slopeRange =
        lo < hi ? lo...hi : lo > 0 ? (lo - 1)...hi : lo...min(hi + 1, samples.count - 1)
      let position: Double
      let velocity: Double
      switch smoother {
      case .movingAverage:
        position = mean(samples, lo...hi)
        velocity = fit(samples, slopeRange, around: t, degree: 1).b
      case .localQuadratic:
        let q = fit(samples, slopeRange, around: t, degree: 2)
        position = q.a
        velocity = q.b
      }
      let qa = fit(samples, loA...hiA, around: t, degree: 2)
      out.append(
        Kinematics(
          t: t, position: position / 100, velocity: velocity / 100, acceleration: 2 * qa.c / 100))
    }
    return out
  }

  /// The slope (cm/s) at `t0` of a least-squares cubic of cm against
  /// (t − t0) over the samples in `r`, or nil when they cannot carry one.
  /// At the centre of a symmetric window a quadratic's slope is the
  /// window's average slope, low at a velocity peak by the peak's
  /// curvature times the window's width squared; a cubic's third-order
  /// term takes that curvature up.
  static func cubicSlope(_ s: [TimedHeight], _ r: ClosedRange<Int>, around t0: Double) -> Double? {
    guard r.count >= 4 else { return nil }
    // x scaled to about ±1 keeps the normal equations well conditioned.
    let scale = max(abs(s[r.lowerBound].t - t0), abs(s[r.upperBound].t - t0), 1e-9)
    // The augmented normal equations [Σx^(i+j) | Σx^i·y], i, j = 0…3,
    // row-major, inline (no heap: this runs for every reading of a peak).
    var m = InlineArray<20, Double>(repeating: 0)
    for i in r {
      let x = (s[i].t - t0) / scale
      let p: InlineArray<4, Double> = [1, x, x * x, x * x * x]
      for row in 0..<4 {
        for column in 0..<4 { m[row * 5 + column] += p[row] * p[column] }
        m[row * 5 + 4] += p[row] * s[i].cm
      }
    }
    // Gauss–Jordan with partial pivoting.
    for column in 0..<4 {
      var pivot = column
      for row in column..<4 where abs(m[row * 5 + column]) > abs(m[pivot * 5 + column]) {
        pivot = row
      }
      guard abs(m[pivot * 5 + column]) > 1e-12 else { return nil }
      if pivot != column {
        for k in 0..<5 { m.swapAt(pivot * 5 + k, column * 5 + k) }
      }
      for row in 0..<4 where row != column {
        let factor = m[row * 5 + column] / m[column * 5 + column]
        for k in column..<5 { m[row * 5 + k] -= factor * m[column * 5 + k] }
      }
    }
    return m[1 * 5 + 4] / m[1 * 5 + 1] / scale
  }

  /// The slope (m/s) of a cubic over a centred window of `windowS` at
  /// each sample in `indices`: nil where the window holds fewer than
  /// `minReadings`.
  static func cubicVelocities(
    of samples: [TimedHeight], _ indices: ClosedRange<Int>, windowS: Double, minReadings: Int
  ) -> [(index: Int, t: Double, velocity: Double?)] {
    let half = windowS / 2
    var out: [(index: Int, t: Double, velocity: Double?)] = []
    out.reserveCapacity(indices.count)
    var lo = indices.lowerBound
    while lo > 0, samples[lo - 1].t >= samples[indices.lowerBound].t - half { lo -= 1 }
    var hi = indices.lowerBound
    for i in indices {
      let t = samples[i].t
      while samples[lo].t < t - half { lo += 1 }
      hi = max(hi, i)
      while hi + 1 < samples.count, samples[hi + 1].t <= t + half { hi += 1 }
      let slope = hi - lo + 1 >= minReadings ? cubicSlope(samples, lo...hi, around: t) : nil
      out.append((i, t, slope.map { $0 / 100 }))
    }
    return out
  }

  static func mean(_ s: [TimedHeight], _ r: ClosedRange<Int>) -> Double {
    var sum = 0.0
    for i in r { sum += s[i].cm }
    return sum / Double(r.count)
  }

  /// Least squares of cm against (t − t0): a + b·x + c·x². Falls back to a
  /// lower degree when the window has too few distinct samples.
  static func fit(_ s: [TimedHeight], _ r: ClosedRange<Int>, around t0: Double, degree: Int)
    -> (a: Double, b: Double, c: Double)
  {
    var s0 = 0.0
    var s1 = 0.0
    var s2 = 0.0
    var s3 = 0.0
    var s4 = 0.0
    var y0 = 0.0
    var y1 = 0.0
    var y2 = 0.0
    for i in r {
      let x = s[i].t - t0
      let y = s[i].cm
      let x2 = x * x
      s0 += 1
      s1 += x
      s2 += x2
      s3 += x2 * x
      s4 += x2 * x2
      y0 += y
      y1 += x * y
      y2 += x2 * y
    }
    if degree >= 2, r.count >= 4 {
      // Solve the 3×3 normal equations by Cramer's rule.
      let det =
        s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
      if abs(det) > 1e-18 {
        let a =
          (y0 * (s2 * s4 - s3 * s3) - s1 * (y1 * s4 - s3 * y2) + s2 * (y1 * s3 - s2 * y2)) / det
        let b =
          (s0 * (y1 * s4 - y2 * s3) - y0 * (s1 * s4 - s3 * s2) + s2 * (s1 * y2 - y1 * s2)) / det
        let c =
          (s0 * (s2 * y2 - s3 * y1) - s1 * (s1 * y2 - s2 * y1) + y0 * (s1 * s3 - s2 * s2)) / det
        return (a, b, c)
      }
    }
    let det = s0 * s2 - s1 * s1
    if r.count >= 2, abs(det) > 1e-18 {
      let b = (s0 * y1 - s1 * y0) / det
      let a = (y0 - b * s1) / s0
      return (a, b, 0)
    }
    return (y0 / max(s0, 1), 0, 0)
  }
}
