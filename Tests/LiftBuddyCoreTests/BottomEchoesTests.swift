import Testing

@testable import LiftBuddyCore

/// A rep's bottom read through the sonar's echoes (`BottomEchoes`): measured
/// from the set's bottom, not from the echoes, and a bar that really went
/// lower is no echo.
@Suite struct BottomEchoesTests {
  typealias Phase = SyntheticLift.Phase

  /// The lines with the readings from `leadS` before each time replaced by
  /// `echoes`, one reading each.
  private func reading(
    _ lines: [(t: Double, line: String)], echoes: [Int], before times: [Double], leadS: Double
  ) -> [(t: Double, line: String)] {
    var lines = lines
    for time in times {
      let run = lines.indices.filter {
        lines[$0].line.hasPrefix("s:") && lines[$0].t > time - leadS
      }
      for (i, cm) in zip(run, echoes) { lines[i].line = "s:\(cm)" }
    }
    return lines
  }

  /// A bench press's readings at 25 Hz: 1 s at the top (100 cm), down to
  /// the chest (66) in 0.9 s, `bottom` there, back up in 0.6 s, and 1 s
  /// at the top.
  private func benchReadings(bottom: [Double]) -> [TimedHeight] {
    var cm: [Double] = Array(repeating: 100, count: 25)
    cm += (1...22).map { 100 - 34 * Double($0) / 22 }
    cm += bottom
    cm += (1...15).map { 66 + 34 * Double($0) / 15 }
    cm += Array(repeating: 100, count: 25)
    return cm.enumerated().map { TimedHeight(t: Double($0.offset) / 25, cm: $0.element) }
  }

  @Test func aRunOfEchoesAtABenchPressBottomIsNotTheBar() {
    // Seven readings of the bench and the lifter under the chest (45 → 20
    // cm, 0.28 s: independent looked-at 9040, where the gate kept them
    // and the rep's start was read 46 cm under the chest). The set's
    // bottom is the chest: those readings go, and the rise is measured
    // from the lowest reading left, the chest.
    let echoes: [Double] = [45, 44, 42, 21, 22, 20, 21]
    let samples = benchReadings(bottom: [66] + echoes + [66])
    let valley = samples.first { $0.cm == 20 }!
    let rise = TurnFinder.Rise(
      valley: valley, peak: samples.last!, previousPeak: samples[0], arrivedAtValleyT: valley.t)
    let band = RepRules.Ends(bottomCm: 66, topCm: 100)
    let clean = BottomEchoes.removed(
      from: samples, rise: rise, exercise: .benchPress, band: band, noiseCm: 1)
    #expect(clean?.samples == samples.filter { !echoes.contains($0.cm) })
    #expect(clean?.rise.valley.cm == 66)
    #expect(clean?.rise.peak == rise.peak)
  }

  @Test func aBarThatStaysUnderTheSetsBottomIsNoEcho() {
    // The same readings under the chest for 1 s (a bar lowered onto the
    // spotter arms): the bar, kept; nothing to take out.
    let low: [Double] = Array(repeating: 40, count: 25)
    let samples = benchReadings(bottom: [66] + low + [66])
    let valley = samples.first { $0.cm == 40 }!
    let rise = TurnFinder.Rise(
      valley: valley, peak: samples.last!, previousPeak: samples[0], arrivedAtValleyT: valley.t)
    let band = RepRules.Ends(bottomCm: 66, topCm: 100)
    #expect(
      BottomEchoes.removed(
        from: samples, rise: rise, exercise: .benchPress, band: band, noiseCm: 1) == nil)
  }

  @Test func nothingLiesUnderADeadliftsFloor() {
    // A deadlift's floor (the set's bottom, 22 cm) bounds every reading,
    // however long: 1 s of readings at 8 cm is the plates' echo too.
    let samples = (0..<100).map { i -> TimedHeight in
      let t = Double(i) / 25
      return TimedHeight(t: t, cm: i < 25 ? 22 : i < 50 ? 8 : 22 + Double(i - 50))
    }
    let rise = TurnFinder.Rise(
      valley: samples[30], peak: samples.last!, previousPeak: nil, arrivedAtValleyT: samples[25].t)
    let band = RepRules.Ends(bottomCm: 22, topCm: 80)
    let clean = BottomEchoes.removed(
      from: samples, rise: rise, exercise: .deadlift, band: band, noiseCm: 1)
    #expect(clean?.samples == samples.filter { $0.cm != 8 })
    #expect(clean?.rise.valley == TimedHeight(t: samples[30].t, cm: 22))
  }

  @Test func aNoisyFloorIsReadAboveItsEchoes() {
    // A deadlift's first pull from a floor at about 21 cm (σ 3 cm), as the
    // track gate kept its readings (independent looked-at 60056, 27.5 s
    // on): echoes off the plates and the feet (14, 2; 3, 3, 3, 3, 4) among
    // the floor's own readings, the last of them just before the bar
    // leaves. The five echoes and the three readings before them stood as
    // a stand of their own, at 4 cm; the bar lay higher, and nothing under
    // it is the bar's.
    let kept: [(Double, Double)] = [
      (27.52, 27), (27.57, 22), (27.62, 20), (27.67, 18), (27.76, 18), (27.81, 18),
      (27.86, 20), (27.91, 26), (27.96, 22), (28.01, 23), (28.11, 24), (28.15, 22),
      (28.20, 22), (28.25, 17), (28.35, 20), (28.40, 21), (28.45, 25), (28.49, 21),
      (28.54, 14), (28.59, 2), (28.91, 14), (28.96, 18), (29.00, 14), (29.05, 3),
      (29.09, 3), (29.13, 3), (29.18, 3), (29.23, 4), (29.32, 22), (29.36, 30),
      (29.41, 35), (29.45, 38), (29.50, 46), (29.54, 47),
    ]
    var samples = kept.map { TimedHeight(t: $0.0, cm: $0.1) }
    samples += (1...13).map {
      TimedHeight(t: 29.54 + 0.05 * Double($0), cm: 47 + 31 * Double($0) / 13)
    }
    samples += (1...20).map { TimedHeight(t: 30.19 + 0.05 * Double($0), cm: 78) }
    let rise = TurnFinder.Rise(
      valley: samples[25], peak: samples.last!, previousPeak: nil,
      arrivedAtValleyT: samples[23].t)
    let clean = BottomEchoes.removed(
      from: samples, rise: rise, exercise: .deadlift, band: nil, noiseCm: 3)
    #expect(abs((clean?.rise.valley.cm ?? 0) - 21) <= 1, "\(String(describing: clean?.rise))")
    #expect(clean?.samples.allSatisfy { $0.cm >= 14 } == true)
  }

  @Test(arguments: [0.05, 0.1, 0.15], [20.0, 25.0])
  func aDeadliftIsMeasuredFromTheFloorNotItsEchoes(leadS: Double, rateHz: Double) {
    // Five touch-and-go pulls of 58 cm from a floor at 22 cm; the sonar
    // reads the bar's bottom before the first, third and fifth pulls as a
    // run of echoes off the plates and feet (4–14 cm, as the independent
    // simulator's dirty floors read them, from `leadS` before the bar
    // leaves). Measured from those, the pulls read 73–77 cm. The bar lies
    // on its plates: no reading below the floor is the bar's.
    let lift = SyntheticLift.deadlift(reps: 5, romCm: 58, up: 0.8, hold: 0.4, down: 0.9, rest: 0.1)
    let phases = lift.phases
    var bottoms = [lift.leadIn]
    for (i, p) in phases.enumerated() where p.deltaCm < 0 {
      bottoms.append(lift.leadIn + phases[...i].reduce(0) { $0 + $1.duration })
    }
    let lines = reading(
      lift.lines(rateHz: rateHz), echoes: [14, 4, 5, 5, 8],
      before: [bottoms[0], bottoms[2], bottoms[4]], leadS: leadS)
    let e = analyze(lines, session: SessionInfo(source: "test", exercise: .deadlift))
    let roms = e.reports.map { $0.reps.map(\.romCm) }
    #expect(roms.map(\.count) == [5], "\(roms)")
    #expect(roms.joined().allSatisfy { abs($0 - 58) < 3 }, "\(roms)")
  }

  @Test(arguments: 1...16 as ClosedRange<UInt64>)
  func aFirstPullLoweredOntoTheFloorsEchoesCameBack(seed: UInt64) {
    // A dead-stop set of three 60-cm pulls over a noisy floor (σ 2 cm),
    // each shown locked out for 0.4 s and lowered in 0.7 s onto the floor
    // (22 cm), where it rests 1.5 s. As the first lands, the sonar reads
    // the plates at 3–5 cm for three readings: the bottom of its return
    // lies under the floor, and the first pull, still provisional, was
    // withdrawn as a one-way move (independent looked-at 20107). The bar
    // rests at the floor around that bottom: it came back. (Without that,
    // seeds 8 and 14 of these sixteen lose the first pull.)
    let lift = SyntheticLift.deadlift(reps: 3, romCm: 60, up: 0.9, hold: 0.4, down: 0.7, rest: 1.5)
    let landed = lift.leadIn + lift.phases[0...2].reduce(0) { $0 + $1.duration }
    let lines = reading(
      lift.noisyLines(rateHz: 20, sigmaCm: 2, seed: seed), echoes: [5, 4, 3], before: [landed],
      leadS: 0.001)
    let e = analyze(lines, session: SessionInfo(source: "test", exercise: .deadlift))
    #expect(e.reports.map(\.reps.count) == [3], "\(e.reports.map(\.reps))")
  }

  @Test func aSquatDumpedOnThePinsIsNoEchoAndNoRep() {
    // Three squats of 58 cm, then a fourth the lifter fails: down to the
    // bottom, 8 cm up, and dumped on the safety pins 15 cm lower, where
    // the bar lies 3 s while the lifter crawls out; then lifted off the
    // pins to the hooks. The bar under the set's bottom for seconds was
    // the bar: the lift off the pins rises 73 cm from there, no rep of the
    // set (measured from the set's bottom, it would pass for one).
    var phases: [Phase] = []
    for _ in 0..<3 {
      phases += [.init(duration: 1.0, deltaCm: -58), .init(duration: 0.2, deltaCm: 0)]
      phases += [.init(duration: 0.8, deltaCm: 58), .init(duration: 1.5, deltaCm: 0)]
    }
    phases += [
      .init(duration: 1.1, deltaCm: -58), .init(duration: 0.3, deltaCm: 8),
      .init(duration: 0.5, deltaCm: -23), .init(duration: 3.0, deltaCm: 0),
      .init(duration: 1.2, deltaCm: 73), .init(duration: 20, deltaCm: 0),
    ]
    let lift = SyntheticLift(startCm: 140, leadIn: 3, phases: phases)
    let e = analyze(lift.lines(rateHz: 20), session: SessionInfo(source: "test", exercise: .squat))
    #expect(e.reports.map(\.reps.count) == [3], "\(e.reports.map(\.reps))")
  }
}
