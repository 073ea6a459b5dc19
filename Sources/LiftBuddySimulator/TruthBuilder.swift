/// Measures each planned rep on the noise-free trajectory exactly as the
/// contract defines it (§4), then moves the times onto the stream's clock.
struct TruthBuilder {
  /// Scan step for turnarounds before bisection refines them.
  static let scanStepS = 0.002
  static let bisectionToleranceS = 1e-7
  /// Step for the attitude maxima: the tilt episodes last seconds.
  static let attitudeStepS = 0.005
  /// A dip counts as a sticking point only if velocity climbs back by this
  /// much (m/s) after it: less is the ordinary wobble of a smooth push.
  static let stickingRecoveryMps = 0.02

  let trajectory: BarTrajectory
  let imu: ImuModel
  let clock: StreamClock

  func set(_ plan: SetPlan, exercise: String) -> TruthSet {
    let reps = plan.reps.map(rep)
    let first = plan.reps.first
    let last = plan.reps.last
    let start = first.map { $0.eccentricStart ?? $0.concentricPulseStart } ?? 0
    let end = last.map { $0.trailingEccentricEnd ?? $0.concentricPulseEnd } ?? 0
    return TruthSet(
      exercise: exercise, loadKg: plan.loadKg, startS: FixedDecimal.round(clock.map(start), 3),
      endS: FixedDecimal.round(clock.map(end), 3), reps: reps)
  }

  func rep(_ plan: RepPlan) -> TruthRep {
    let start = upCrossing(from: plan.concentricPulseStart - Self.scanStepS)
    let end = downCrossing(from: start)
    let rom = trajectory.height(at: end) - trajectory.height(at: start)
    var peak = 0.0
    var t = start
    while t < end {
      peak = max(peak, trajectory.velocity(at: t))
      t += Self.scanStepS / 4
    }
    let mappedStart = clock.map(start)
    let mappedEnd = clock.map(end)
    // On a drifting raw clock the same rise takes a little more or less
    // stream time; velocities follow the clock the reader will use.
    let clockRatio = (end - start) / (mappedEnd - mappedStart)
    // Issue 8 measures tilt over the concentric phase only.
    let (pitch, roll) = attitudeMaxima(from: start, to: end)
    return TruthRep(
      index: plan.index, concentricStartS: FixedDecimal.round(mappedStart, 3),
      concentricEndS: FixedDecimal.round(mappedEnd, 3), romCm: FixedDecimal.round(rom, 2),
      meanVelocityMps: FixedDecimal.round(rom / 100 / (mappedEnd - mappedStart), 3),
      peakVelocityMps: FixedDecimal.round(peak / 100 * clockRatio, 3),
      eccentricStartS: plan.eccentricStart.map { FixedDecimal.round(clock.map($0), 3) },
      stickingPointCm: stickingPoint(from: start, to: end).map { FixedDecimal.round($0, 1) },
      maxAbsPitchDeg: FixedDecimal.round(pitch, 1), maxAbsRollDeg: FixedDecimal.round(roll, 1))
  }

  /// First time after `from` where velocity turns from ≤ 0 to > 0.
  private func upCrossing(from: Double) -> Double {
    var low = from
    while trajectory.velocity(at: low + Self.scanStepS) <= 0 { low += Self.scanStepS }
    return bisect(low, low + Self.scanStepS) { trajectory.velocity(at: $0) > 0 }
  }

  /// First time after `from` (inside a rise) where velocity is back to ≤ 0.
  private func downCrossing(from: Double) -> Double {
    var low = from + Self.bisectionToleranceS
    while trajectory.velocity(at: low + Self.scanStepS) > 0 { low += Self.scanStepS }
    return bisect(low, low + Self.scanStepS) { trajectory.velocity(at: $0) <= 0 }
  }

  /// The earliest time in (low, high] where `isAfter` holds, given it holds at `high`.
  private func bisect(_ low: Double, _ high: Double, _ isAfter: (Double) -> Bool) -> Double {
    var low = low
    var high = high
    while high - low > Self.bisectionToleranceS {
      let mid = (low + high) / 2
      if isAfter(mid) { high = mid } else { low = mid }
    }
    return high
  }

  /// Height above the rep's bottom where velocity dips lowest after its
  /// first peak, if it climbs back afterwards (the schema's definition).
  private func stickingPoint(from start: Double, to end: Double) -> Double? {
    let step = Self.scanStepS
    var t = start + step
    var previous = trajectory.velocity(at: start)
    var passedPeak = false
    var dip: (t: Double, v: Double)?
    var recovered = false
    while t < end {
      let v = trajectory.velocity(at: t)
      if !passedPeak {
        if v < previous { passedPeak = true }
      } else if dip == nil || v < dip!.v {
        if !recovered { dip = (t, v) }
      } else if let d = dip, v - d.v > Self.stickingRecoveryMps * 100 {
        recovered = true
        break
      }
      previous = v
      t += step
    }
    guard recovered, let d = dip else { return nil }
    return trajectory.height(at: d.t) - trajectory.height(at: start)
  }

  private func attitudeMaxima(from start: Double, to end: Double) -> (Double, Double) {
    var pitch = 0.0
    var roll = 0.0
    var t = start
    while t <= end {
      let a = imu.attitude(at: t)
      pitch = max(pitch, abs(a.pitch))
      roll = max(roll, abs(a.roll))
      t += Self.attitudeStepS
    }
    return (pitch, roll)
  }
}
