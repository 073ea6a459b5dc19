import Testing

@testable import LiftBuddyCore

/// A bar resting over two targets (the floor and a plate or a rack foot):
/// the sonar reads them in turns of a few readings (the independent
/// simulator's rests, echoes off plates and rack parts). Its smoothed
/// swings are of a rep's size, but no bar moved.
@Suite struct SwitchingSonarTests {
  /// Five presses from the shoulders (133 cm, 49 cm up), the bar put down
  /// on the floor, 6.6 s of the sonar under it reading the floor (48 cm)
  /// and a plate (27 cm) in turns (independent looked-at seed 9034, from
  /// 33.7 s, 40 Hz), picked up, and five more presses. The turns' smoothed
  /// swings (27 ↔ 48 cm, over the set's minimum rise) kept the first set
  /// open through the rest, and the two sets became one of ten reps; in
  /// that stream, through an 80-s rest.
  @Test func aSonarSwitchingUnderTheRestingBarDoesNotKeepTheSetGoing() {
    let floorAndPlate: [Double] = [
      48, 48, 48, 47, 48, 27, 27, 27, 27, 27, 48, 47, 27, 27, 28, 49, 27, 27, 27, 27, 27, 48, 27,
      49, 48, 27, 26, 47, 27, 28, 27, 48, 48, 27, 27, 27, 47, 48, 48, 48, 48, 47, 48, 47, 48, 48,
      49, 48, 49, 49, 47, 49, 49, 49, 48, 48, 49, 48, 400, 48, 48, 27, 26, 48, 48, 47, 27, 27, 27,
      27, 48, 27, 27, 27, 27, 27, 48, 48, 48, 48, 48, 27, 27, 27, 48, 48, 48, 48, 48, 48, 48, 27,
      27, 27, 27, 49, 48, 48, 49, 49, 48, 27, 48, 47, 48, 48, 49, 48, 48, 27, 27, 48, 49, 49, 48,
      27, 27, 27, 27, 27, 27, 49, 28, 27, 27, 27, 27, 27, 26, 27, 27, 27, 48, 48, 48, 49, 48, 48,
      48, 27, 27, 27, 27, 49, 49, 49, 400, 48, 48, 49, 48, 27, 27, 27, 27, 48, 27, 27, 27, 47, 49,
      48, 48, 27, 28, 27, 49, 27, 27, 27, 27, 47, 48, 47, 47, 26, 26, 26, 48, 48, 48, 48, 49, 48,
      27, 400, 26, 400, 26, 400, 49, 48, 48, 49, 49, 49, 48, 48, 47, 27, 27, 48, 48, 48, 47, 49,
      49, 48, 48, 47, 400, 48, 48, 27, 400, 27, 27, 28, 49, 49, 48, 48, 49, 48, 49, 49, 27, 48,
      49, 48, 48, 27, 27, 26, 27, 27, 28, 27, 48, 48, 48, 48, 48, 48, 48, 47, 48, 49, 27, 48, 48,
      48, 48, 27, 27, 27, 48, 48, 27, 48, 48, 48, 48,
    ]
    let rate = 40.0
    let presses = SyntheticLift(
      startCm: 133, leadIn: 3,
      phases: Array(
        repeating: [
          SyntheticLift.Phase(duration: 1, deltaCm: 49),
          SyntheticLift.Phase(duration: 1, deltaCm: -49),
        ], count: 5
      ).flatMap { $0 })
    var heights = stride(from: 0.0, to: presses.endTime + 2, by: 1 / rate).map {
      presses.height(at: $0)
    }
    let putDown = SyntheticLift(
      startCm: 133, leadIn: 0, phases: [SyntheticLift.Phase(duration: 2, deltaCm: -85)])
    heights += stride(from: 0.0, to: 2, by: 1 / rate).map { putDown.height(at: $0) }
    heights += floorAndPlate
    let pickUp = SyntheticLift(
      startCm: 48, leadIn: 0, phases: [SyntheticLift.Phase(duration: 2, deltaCm: 85)])
    heights += stride(from: 0.0, to: 2, by: 1 / rate).map { pickUp.height(at: $0) }
    heights += stride(from: 0.0, to: presses.endTime + 2, by: 1 / rate).map {
      presses.height(at: $0)
    }
    let lines = heights.enumerated().map { i, h in
      (t: Double(i) / rate, line: "s:\(Int(h.rounded()))")
    }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .overheadPress))
      .reports
    #expect(reports.map(\.reps.count) == [5, 5])
  }

  /// Nine seconds of such a rest with no exercise named (independent
  /// looked-at seed 9004, 390–399 s, the bar on a bench's hooks over a
  /// rack foot: 104–109 and 84–93 cm): one switch is a 16-cm "rise" in
  /// 0.19 s whose readings cross its middle, and the next switch back down
  /// "returned" it to its bottom: a set of one. A bar lowered from lockout
  /// and driven back up takes 0.75 s or more; this sonar read the bottom
  /// and the top again within 0.2 s.
  @Test func aSwitchBackDownIsNoReturnFromLockout() {
    let cm: [Double] = [
      91, 112, 103, 105, 95, 88, 88, 91, 103, 105, 103, 97, 106, 105, 103, 104, 104, 101, 102,
      106, 106, 104, 106, 107, 105, 103, 109, 107, 104, 400, 106, 102, 102, 105, 108, 107, 89,
      106, 87, 86, 87, 107, 107, 108, 107, 89, 104, 106, 109, 87, 400, 93, 86, 91, 105, 109, 105,
      104, 104, 90, 93, 106, 104, 104, 100, 106, 107, 104, 108, 106, 107, 105, 88, 99, 106, 106,
      109, 91, 92, 89, 91, 93, 105, 105, 104, 106, 107, 107, 107, 104, 107, 103, 105, 106, 105,
      105, 92, 88, 89, 107, 106, 400, 90, 90, 86, 86, 105, 85, 90, 91, 92, 104, 107, 89, 88, 104,
      107, 90, 90, 91, 90, 105, 102, 94, 88, 88, 89, 106, 106, 108, 107, 89, 87, 91, 84, 107,
      104, 109, 90, 91, 95, 117, 107, 105, 89, 91, 90, 91, 89, 104, 107, 107, 104, 105, 400,
    ]
    let lines = cm.enumerated().map { i, h in (t: Double(i) * 0.0575, line: "s:\(Int(h))") }
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: nil))
    #expect(events.reports.isEmpty, "\(events.reports.map { $0.reps.map(\.concentricStartS) })")
  }

  /// An overhead press's lockout held at 202 cm, the bar lowered to the
  /// shoulders (148 cm) and reracked on the hooks (142 cm) and, 5 s into
  /// the rest, the sonar reading the floor and a rack foot (142 and 114 cm)
  /// in turns, no-echo values between (independent looked-at seed 20099,
  /// 235.5–250.2 s, 20 Hz). Each switch up is a single step, but the
  /// descent before it, from the lockout, crossed the middle of its own
  /// 60 cm: a 27-cm rep at 1.4 m/s, a set of one. The descent must cross
  /// the rise's own middle.
  @Test func aSwitchAfterTheRerackIsNoRepOfTheDescentFromLockout() {
    let cm: [Double] = [
      202, 202, 202, 202, 202, 200, 198, 195, 190, 186, 183, 179, 175, 171, 167, 163, 159, 155,
      152, 150, 149, 148, 148, 148, 400, 147, 147, 148, 400, 147, 147, 148, 148, 148, 148, 148,
      148, 147, 148, 148, 147, 147, 148, 148, 400, 147, 400, 147, 400, 148, 400, 148, 400, 147,
      400, 147, 149, 149, 149, 148, 148, 148, 148, 148, 148, 147, 147, 147, 148, 147, 147, 147,
      147, 147, 147, 148, 147, 148, 148, 149, 148, 148, 148, 148, 148, 147, 147, 146, 145, 144,
      143, 143, 142, 142, 141, 142, 142, 142, 142, 142, 142, 141, 141, 142, 142, 141, 141, 142,
      142, 142, 142, 142, 142, 142, 114, 142, 141, 142, 142, 141, 141, 141, 142, 142, 114, 114,
      141, 142, 141, 142, 141, 142, 141, 115, 115, 115, 400, 142, 400, 141, 400, 141, 400, 141,
      400, 142, 400, 141, 141, 141, 114, 142, 115, 115, 115, 142, 141, 142, 141, 116, 116, 116,
      116, 116, 116, 116, 116, 116, 116, 116, 116, 116, 141, 142, 142, 115, 115, 142, 142, 141,
      142, 141, 116, 114, 114, 400, 141, 400, 142, 400, 141, 400, 142, 400, 142, 400, 116, 116,
      116, 114, 400, 114, 114, 114, 142, 115, 115, 114, 115, 115, 141, 142, 116, 116, 116, 115,
      115, 142, 141, 141, 142, 141, 114, 113, 114, 142, 142, 141, 141, 142, 115, 115, 115, 142,
      141, 141, 114, 114, 114, 114, 142, 114, 115, 141, 142, 400, 116, 116, 116, 116, 142, 142,
      141, 141, 142, 142, 141, 116, 116, 116, 116, 116, 116, 116, 116, 141, 116, 116, 116, 142,
      141, 141, 142, 143,
    ]
    let lines = cm.enumerated().map { i, h in (t: Double(i) * 0.05, line: "s:\(Int(h))") }
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: .overheadPress))
    #expect(events.reports.isEmpty, "\(events.reports.map { $0.reps.map(\.concentricStartS) })")
  }
}
