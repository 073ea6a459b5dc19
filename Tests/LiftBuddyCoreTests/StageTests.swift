import Testing

@testable import LiftBuddyCore

@Suite struct StageTests {
  @Test func movingAverageWindowIsInTime() {
    var ma = MovingAverage(windowS: 0.2)
    var last = TimedHeight(t: 0, cm: 0)
    // A ramp of 1 m/s sampled at 50 Hz: the mean sits on the ramp.
    for i in 0..<100 {
      let t = Double(i) / 50
      last = ma.push(TimedHeight(t: t, cm: 100 * t))
    }
    #expect(abs(last.cm - 100 * last.t) < 1e-9)
    #expect(abs(last.t - (1.98 - 0.1)) < 1e-9)
  }

  @Test func localFitRecoversVelocityAndAcceleration() {
    // x(t) = 50 + 30 t + 200 t² cm on uneven times.
    let samples = (0..<60).map { i -> TimedHeight in
      let t = Double(i) * 0.03 + (i % 2 == 0 ? 0.004 : 0)
      return TimedHeight(t: t, cm: 50 + 30 * t + 200 * t * t)
    }
    let k = LocalFit.kinematics(
      of: samples, smoother: .localQuadratic, windowS: 0.25, accelerationWindowS: 0.3)
    for (s, kin) in zip(samples, k).dropFirst(10).dropLast(10) {
      #expect(abs(kin.velocity - (0.30 + 4 * s.t)) < 1e-6)
      #expect(abs(kin.acceleration - 4) < 1e-6)
      #expect(abs(kin.position - (0.5 + 0.3 * s.t + 2 * s.t * s.t)) < 1e-6)
    }
  }

  /// The cubic's slope is exact on a cubic, at uneven times and off the
  /// window's centre, where a quadratic's reads the window's average.
  @Test func cubicSlopeIsExactOnACubic() {
    let samples = (0..<12).map { i -> TimedHeight in
      let t = Double(i) * 0.05 + (i % 3 == 0 ? 0.007 : 0)
      return TimedHeight(t: t, cm: 40 + 120 * t + 90 * t * t - 400 * t * t * t)
    }
    for (i, t0) in [(5, samples[5].t), (8, samples[8].t)] {
      let slope = LocalFit.cubicSlope(samples, (i - 4)...(i + 3), around: t0)
      #expect(slope != nil)
      #expect(abs((slope ?? 0) - (120 + 180 * t0 - 1200 * t0 * t0)) < 1e-6, "at \(t0)")
      let quadratic = LocalFit.fit(samples, (i - 4)...(i + 3), around: t0, degree: 2).b
      #expect(abs(quadratic - (120 + 180 * t0 - 1200 * t0 * t0)) > 1, "quadratic at \(t0)")
    }
    #expect(LocalFit.cubicSlope(samples, 0...2, around: samples[1].t) == nil)
  }

  /// Walks a piecewise-linear path at 20 Hz through a turn finder.
  private func turns(_ path: [(Double, Double)], until end: Double, noiseCm: Double = 0) -> [(
    Double, TurnFinder.Turn
  )] {
    var finder = TurnFinder()
    finder.noiseCm = noiseCm
    var found: [(Double, TurnFinder.Turn)] = []
    var t = 0.0
    while t <= end {
      let now = t
      finder.push(TimedHeight(t: t, cm: height(path, at: t))) { found.append((now, $0)) }
      t += 0.05
    }
    return found
  }

  /// A piecewise-linear path's height at `t` (held after its last point).
  private func height(_ path: [(Double, Double)], at t: Double) -> Double {
    let i = path.lastIndex { $0.0 <= t }!
    let (t0, h0) = path[i]
    let (t1, h1) = i + 1 < path.count ? path[i + 1] : (t0 + 1, h0)
    return h0 + (h1 - h0) * (t - t0) / (t1 - t0)
  }

  @Test func turnFinderTellsHeldTopsSoonAndIgnoresWobbles() {
    // 140 → wobble ±2 → down 50 → up 50 (held) → 5 cm bump → down 50 → up 50.
    let found = turns(
      [
        (0, 140), (1, 142), (1.5, 139), (2, 141), (3, 90), (4, 140), (5, 140), (5.5, 135),
        (6, 140), (7, 90), (8, 140), (9, 140),
      ], until: 9)
    let held = found.compactMap { t, turn -> (Double, TurnFinder.Rise)? in
      if case .topHeld(let r) = turn { return (t, r) }
      return nil
    }
    let big = held.filter { $0.1.peak.cm - $0.1.valley.cm > 40 }
    #expect(big.count == 2)
    #expect(big.allSatisfy { abs($0.1.valley.cm - 90) < 0.01 && abs($0.1.peak.cm - 140) < 0.01 })
    // Told within stillS (plus a reading) of reaching the top at 4 s and 8 s,
    // long before the bar comes down again.
    #expect(big[0].0 >= 4.0 && big[0].0 <= 4.0 + TurnFinder.stillS + 0.06)
    #expect(big[1].0 >= 8.0 && big[1].0 <= 8.0 + TurnFinder.stillS + 0.06)
    // The second came down from the first's top: the round trip is visible.
    #expect(big[1].1.previousPeak.map { abs($0.cm - 140) < 0.01 } == true)
  }

  @Test func aStopWithinANoisyToleranceIsHeldButNotSettled() {
    // Over a rubber mat (smoothed noise 1.25 cm: a 2.5 cm still tolerance)
    // the smoothed height of a press stays flat for 0.25 s halfway up (the
    // noise hiding a crawl): it stood there, but did not settle (`settleS`,
    // 0.375 s). The top it settles at is the lockout.
    let path: [(Double, Double)] = [
      (0, 90), (1, 90), (1.5, 118), (1.75, 118), (2.2, 142), (4, 142),
    ]
    let found = turns(path, until: 4, noiseCm: 1.25)
    let held = found.compactMap { _, turn -> TurnFinder.Rise? in
      if case .topHeld(let r) = turn { return r }
      return nil
    }
    let settled = found.compactMap { t, turn -> (Double, TurnFinder.Rise)? in
      if case .topSettled(let r) = turn { return (t, r) }
      return nil
    }
    #expect(held.first.map { $0.peak.cm < 119 } == true, "\(held)")
    #expect(settled.count == 1)
    #expect(settled.first.map { abs($0.1.peak.cm - 142) < 0.01 } == true, "\(settled)")
    #expect(settled.first.map { $0.0 <= 2.2 + 0.375 + 0.06 } == true)
    // On a hard floor a top settles as soon as it is held.
    let hard = turns([(0, 90), (1, 90), (2, 142), (4, 142)], until: 4)
    let times = hard.compactMap { t, turn -> Double? in
      switch turn {
      case .topHeld, .topSettled: t
      default: nil
      }
    }
    #expect(times.count == 2 && times[0] == times[1])
  }

  @Test func aParkIsWhereTheBarStoodNotWhereItsPlateauBegan() {
    // A paused bench press's drive over a noisy sonar (smoothed noise
    // 1.5 cm: a 9-cm hysteresis), its last centimetres read across the
    // sonar's no-echo values: the plateau that parks the rise begins at
    // 91 cm, on the drive's tail, and the bar stands at 97–99 for the rest
    // of it, then at 100.5. Parked at the plateau's first reading, the
    // rise ended 9 cm under its lockout and the 100.5 cm a reading later
    // was a new rise out of the "park" (independent looked-at 630077: the
    // set's one rep, 58 → 99 cm, was no round trip from its 101-cm stand,
    // and the spotter's rise after the failed rep a set of one).
    var readings = stride(from: 0.0, through: 1.3, by: 0.1).map {
      TimedHeight(t: $0, cm: 58 + 20 * $0)
    }
    readings.append(TimedHeight(t: 1.6, cm: 91))
    for (i, cm) in [97.0, 98, 97, 99, 98, 97, 98, 99, 98].enumerated() {
      readings.append(TimedHeight(t: 1.7 + 0.1 * Double(i), cm: cm))
    }
    readings += stride(from: 2.6, through: 4.0, by: 0.1).map { TimedHeight(t: $0, cm: 100.5) }
    readings += stride(from: 4.1, through: 5.0, by: 0.1).map {
      TimedHeight(t: $0, cm: 100.5 - 42.5 * ($0 - 4) / 1)
    }
    var finder = TurnFinder()
    finder.noiseCm = 1.5
    var left: [TurnFinder.Rise] = []
    for r in readings {
      finder.push(r) { turn in
        if case .topLeft(let rise) = turn { left.append(rise) }
      }
    }
    #expect(left.count == 1, "\(left)")
    #expect(left.first.map { $0.peak.cm > 97 && abs($0.valley.cm - 58) < 0.01 } == true, "\(left)")
  }

  @Test func turnFinderKeepsAParkedTopWhenTheBarGoesOnlyALittleHigher() {
    // A rise 90 → 140, held 2 s, then lifted 5 cm onto the hooks and left:
    // the rise's top stays at 140 (the hooks are another move), so a rep
    // measured on it ends at its lockout, and the stand is counted.
    let found = turns([(0, 90), (1, 90), (2, 140), (4, 140), (4.5, 145), (8, 145)], until: 8)
    let tops = found.compactMap { _, turn -> TurnFinder.Rise? in
      if case .topHeld(let r) = turn { return r }
      return nil
    }
    #expect(!tops.isEmpty)
    #expect(tops.allSatisfy { $0.peak.cm <= 140 + TurnFinder.minStillToleranceCm }, "\(tops)")
  }

  @Test func aDescentFromAStandAboveAParkLeftThatStand() {
    // A bench press on hooks at 95 cm (the rise onto them parked there),
    // lifted 6.5 cm off them to lockout and held 2 s, lowered to the chest
    // and pressed back to lockout: the press came down from the lockout,
    // not from the hooks (independent looked-at 70037).
    func pressTop(_ path: [(Double, Double)]) -> TurnFinder.Rise? {
      turns(path, until: path.last!.0).compactMap { _, turn -> TurnFinder.Rise? in
        if case .topHeld(let r) = turn, r.valley.cm < 70 { return r }
        return nil
      }.last
    }
    let press: [(Double, Double)] = [(7.5, 68.5), (8.5, 68.5), (9.5, 102), (11, 102)]
    let stood = pressTop([(0, 60), (1, 95), (3.5, 95), (4.5, 101.5), (7, 101.5)] + press)
    #expect(
      stood.flatMap(\.previousPeak).map { abs($0.cm - 101.5) < 0.01 } == true, "\(stood as Any)")
    #expect(stood.map { $0.previousPeakStoodS >= 2.0 } == true, "\(stood as Any)")
    // The same lift that only passed through 101.5 and back onto the
    // hooks, within the hysteresis of it for 0.4 s (a spike through the
    // smoothing, the bar over the hooks' lip), came down from the hooks.
    let hump = pressTop(
      [(0, 60), (1, 95), (3.5, 95), (3.8, 101.5), (3.9, 101.5), (4.2, 95), (7, 95)] + press)
    #expect(hump.flatMap(\.previousPeak).map { abs($0.cm - 95) < 0.01 } == true, "\(hump as Any)")
  }

  @Test func aBumpAtTheBottomLeavesTheDescentItsTop() {
    // A paused bench press lowered from its stand at 100 cm to the chest at
    // 68, where echoes (or a frozen sonar) made a bump of 8.5 cm before the
    // drive: the drive came down from the stand, not from the bump
    // (independent looked-at 430001). A bump after a rest longer than any
    // pause at a rep's bottom, or a rise more than half way back up, is a
    // top of its own.
    func pressFrom(restS: Double, bumpCm: Double) -> TurnFinder.Rise? {
      let b = 3 + restS
      let path: [(Double, Double)] = [
        (0, 100), (2, 100), (3, 68), (b, 68), (b + 0.2, bumpCm), (b + 0.4, 68.5), (b + 0.9, 68.5),
        (b + 1.7, 100), (b + 3.5, 100),
      ]
      return turns(path, until: b + 3.5).compactMap { _, turn -> TurnFinder.Rise? in
        if case .topHeld(let r) = turn, r.valley.cm < 70, r.valley.t > b { return r }
        return nil
      }.last
    }
    let bumped = pressFrom(restS: 0.5, bumpCm: 76.5)
    #expect(
      bumped.flatMap(\.previousPeak).map { abs($0.cm - 100) < 0.01 } == true, "\(bumped as Any)")
    #expect(bumped.map { $0.previousPeakStoodS >= 1.5 } == true, "\(bumped as Any)")
    let rested = pressFrom(restS: RepRules.maxBottomPauseS + 1, bumpCm: 76.5)
    #expect(
      rested.flatMap(\.previousPeak).map { abs($0.cm - 76.5) < 0.01 } == true, "\(rested as Any)")
    let halfway = pressFrom(restS: 0.5, bumpCm: 86)
    #expect(
      halfway.flatMap(\.previousPeak).map { abs($0.cm - 86) < 0.01 } == true, "\(halfway as Any)")
  }

  @Test func aDescentFromARestPartWayDownLeftTheRest() {
    // A squat at lockout (131) re-racked onto hooks 5 cm lower, rested
    // there, walked out at the hooks' height and lowered into a rep: the
    // rep came down from the rest at the hooks (independent looked-at
    // 30075), for as long as the bar rested there. Paused on the way down
    // for less than a lift's longest pause, it came down from the top.
    func squat(restingS: Double) -> TurnFinder.Rise? {
      let rest = 3 + restingS
      let path: [(Double, Double)] = [
        (0, 80), (1, 131), (2, 131), (2.3, 126), (rest, 126), (rest + 1, 76), (rest + 1.5, 76),
        (rest + 2.2, 128), (rest + 4, 128),
      ]
      return turns(path, until: rest + 4).compactMap { _, turn -> TurnFinder.Rise? in
        if case .topHeld(let r) = turn, r.valley.cm < 77 { return r }
        return nil
      }.last
    }
    let rested = squat(restingS: 20)
    #expect(
      rested.flatMap(\.previousPeak).map { abs($0.cm - 126) < 0.5 } == true, "\(rested as Any)")
    #expect(rested.map { $0.previousPeakStoodS >= 20 } == true, "\(rested as Any)")
    let paused = squat(restingS: RepRules.maxBottomPauseS - 1.5)
    #expect(
      paused.flatMap(\.previousPeak).map { abs($0.cm - 131) < 0.01 } == true, "\(paused as Any)")
  }

  @Test func turnFinderSplitsARiseWhereTheBarWasParked() {
    // Floor (20) to the shoulders (135), parked 2 s, pressed to 190.
    let found = turns([(0, 20), (1, 20), (2, 135), (4, 135), (5, 190), (7, 190)], until: 7)
    let rises = found.compactMap { _, turn -> TurnFinder.Rise? in
      if case .topLeft(let r) = turn { return r }
      return nil
    }
    #expect(rises.count == 1)
    #expect(abs(rises[0].valley.cm - 20) < 0.01 && abs(rises[0].peak.cm - 135) < 3.01)
    let lastHeld = found.compactMap { _, turn -> TurnFinder.Rise? in
      if case .topHeld(let r) = turn { return r }
      return nil
    }.last!
    // The press rises from the park, and did not come down into it.
    #expect(abs(lastHeld.valley.cm - 135) < 3.01 && abs(lastHeld.peak.cm - 190) < 0.01)
    #expect(lastHeld.previousPeak.map { abs($0.cm - lastHeld.valley.cm) < 0.01 } == true)
  }

  @Test func aParkWithinTheNoiseOfABottomIsThePause() {
    // A paused bench press: lowered from 95 to the chest (64), where the
    // sonar's noise lifted the smoothed bar by 4 cm for the pause, which
    // then parked; the press from the chest is the descent's return
    // (independent looked-at 20117: a first rep with no descent, lost).
    // A bar parked well above its bottom (a failed press stalled 8 cm up
    // and lifted by a spotter, tune and looked-at 40013) still rose from
    // the park.
    func press(humpCm: Double) -> TurnFinder.Rise? {
      let path: [(Double, Double)] = [
        (0, 95), (2, 95), (3, 64), (3.3, 64 + humpCm), (5, 64 + humpCm), (5.8, 95), (8, 95),
      ]
      return turns(path, until: 8).compactMap { _, turn -> TurnFinder.Rise? in
        if case .topHeld(let r) = turn, r.peak.cm > 94 { return r }
        return nil
      }.last
    }
    let paused = press(humpCm: 4)
    #expect(
      paused.flatMap(\.previousPeak).map { abs($0.cm - 95) < 0.01 } == true, "\(paused as Any)")
    let stalled = press(humpCm: 8)
    #expect(
      stalled.flatMap(\.previousPeak).map { abs($0.cm - 72) < 0.5 } == true, "\(stalled as Any)")
  }

  @Test func anEccentricPhaseStartsWhereTheBarLeftItsTop() {
    // The clip put back on a bar on the hooks: its readings fell 30 cm and
    // came back in a tenth of a second as the top was first reached
    // (independent looked-at 20117). The bar stood there 9 s, then came
    // down over 1 s, paused 0.2 s and rose. Looked for from the top's
    // first reading, the eccentric phase began at the clip's readings,
    // 9 s early, and the descent's tilt check saw the clip in the hand.
    let path: [(Double, Double)] = [
      (0, 140), (0.85, 140), (0.9, 110), (0.95, 140), (10, 140), (11, 85), (11.2, 85),
      (12, 140), (14, 140),
    ]
    let samples = (0...280).map { i in
      TimedHeight(t: Double(i) * 0.05, cm: height(path, at: Double(i) * 0.05))
    }
    let rise = TurnFinder.Rise(
      valley: TimedHeight(t: 11.1, cm: 85), peak: TimedHeight(t: 12, cm: 140),
      previousPeak: TimedHeight(t: 1, cm: 140), arrivedAtValleyT: 11, previousPeakStoodS: 9)
    let measurer = RepMeasurer(smoother: .movingAverage, windowS: 0.25)
    let measured = measurer.measure(
      samples: samples, rise: rise, index: 1, minRiseCm: 10, maxRomCm: 100,
      attitude: AttitudeLog())
    #expect(measured.flatMap(\.eccentricStartS).map { abs($0 - 10) < 0.15 } == true)
  }

  @Test func aBarEasedUpSlowerThanAnyRepIsNoRep() {
    // A bench press eased off the hooks (independent looked-at 60018): the
    // bar drifted 10 cm up over 7.5 s, 0.013 m/s, under every other gate.
    // The same rise in one second is a rep (the gate, not the fit, says no).
    func measured(riseS: Double) -> RepMeasurer.Measured? {
      let path: [(Double, Double)] = [(0, 100), (1, 100), (1 + riseS, 110), (3 + riseS, 110)]
      let samples = (0...Int((3 + riseS) * 20)).map { i in
        TimedHeight(t: Double(i) * 0.05, cm: height(path, at: Double(i) * 0.05))
      }
      let rise = TurnFinder.Rise(
        valley: TimedHeight(t: 1, cm: 100), peak: TimedHeight(t: 1 + riseS, cm: 110),
        previousPeak: nil, arrivedAtValleyT: 0, previousPeakStoodS: 0)
      return RepMeasurer(smoother: .movingAverage, windowS: 0.25).measure(
        samples: samples, rise: rise, index: 1, minRiseCm: 8, maxRomCm: 100,
        attitude: AttitudeLog())
    }
    #expect(measured(riseS: 7.5) == nil)
    let quick = measured(riseS: 1)?.analysis.report
    #expect(quick.map { abs($0.romCm - 10) < 1 && $0.meanVelocityMps > 0.05 } == true)
  }

  @Test func rfc3339() {
    #expect(RFC3339Formatter.string(unixSeconds: 0) == "1970-01-01T00:00:00.000Z")
    #expect(RFC3339Formatter.string(unixSeconds: 1_767_607_212.345) == "2026-01-05T10:00:12.345Z")
    #expect(RFC3339Formatter.string(unixSeconds: 951_782_400) == "2000-02-29T00:00:00.000Z")
    #expect(RFC3339Formatter.compact(unixSeconds: 1_767_607_212.9) == "20260105T100012Z")
    // Round trip through the reader's parser.
    let s = RFC3339Formatter.string(unixSeconds: 1_700_000_000.25)
    #expect(RFC3339Timestamp.unixSeconds(s) == 1_700_000_000.25)
  }
}

@Suite struct RFC3339FormatterLimitTests {
  @Test func absurdTimesAreClampedNotTrapped() {
    #expect(RFC3339Formatter.string(unixSeconds: 1e16) == "9999-12-31T23:59:59.999Z")
    #expect(RFC3339Formatter.string(unixSeconds: -1e16) == "0000-01-01T00:00:00.000Z")
    #expect(RFC3339Formatter.string(unixSeconds: .infinity) == "9999-12-31T23:59:59.999Z")
    #expect(RFC3339Formatter.string(unixSeconds: .nan) == "1970-01-01T00:00:00.000Z")
  }

  @Test func analyzerSurvivesAbsurdTimes() {
    var analyzer = Analyzer(session: SessionInfo(source: "t", wallClockOrigin: 1e300))
    var events: [AnalyzerEvent] = []
    let lift = SyntheticLift.squat(reps: 2)
    for (t, line) in lift.lines(rateHz: 20) {
      analyzer.ingest(line: line, at: t + 1e9, into: &events)
    }
    analyzer.finish(into: &events)
    #expect(events.reports.first?.startedAt == "9999-12-31T23:59:59.999Z")
  }
}
