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

  /// A deadlift set's first pull over a dirty floor (independent looked-at
  /// seed 60115, 128–140 s, serial at 25 Hz): the sonar stuck at 20.5 cm
  /// for half a second as the bar left the floor, then read 49, 52, 57,
  /// 60 and the lockout at 71, all past the halfway point of a middle
  /// widened by the noise. The ramp is seen at its ends only, as a sonar
  /// switching between two targets would be; the way back down, 0.7 s
  /// of readings through the middle, is the bar's. Three pulls, the first
  /// locked out at 4.44 s.
  @Test func aFirstPullSeenAtItsEndsCountsOnceItsWayDownIsSeen() {
    let readings: [(t: Double, cm: Double)] = [
      (0.014, 21.4), (0.062, 20.9), (0.094, 21.4), (0.142, 22.1), (0.319, 400), (0.319, 400),
      (0.319, 400), (0.319, 244.8), (0.350, 243.9), (0.399, 245.3), (0.446, 400), (0.478, 400),
      (0.526, 400), (0.558, 249.3), (0.574, 22.7), (0.622, 21.3), (0.686, 400), (0.702, 20.7),
      (0.735, 21), (0.782, 21.4), (0.814, 20), (0.862, 20.5), (0.894, 21.4), (0.942, 18.9),
      (1.006, 400), (1.022, 19.7), (1.054, 20.3), (1.102, 20.2), (1.134, 19.8), (1.182, 19.5),
      (1.246, 400), (1.262, 19.9), (1.294, 20.3), (1.342, 20.7), (1.374, 20.2), (1.422, 20),
      (1.454, 19.3), (1.502, 20.1), (1.534, 19.8), (1.599, 400), (1.614, 19.3), (1.662, 20.5),
      (1.694, 19.4), (1.742, 20.2), (1.775, 19.5), (1.823, 20), (1.854, 20.2), (1.902, 19),
      (1.934, 19.8), (1.982, 19.8), (2.014, 8), (2.062, 8.5), (2.094, 8.4), (2.142, 20.8),
      (2.174, 20.3), (2.223, 19.6), (2.254, 18.3), (2.302, 20.8), (2.334, 20.3), (2.382, 20.7),
      (2.414, 19.9), (2.462, 20.7), (2.494, 19.9), (2.542, 19.8), (2.575, 20.3), (2.638, 400),
      (2.654, 20), (2.702, 2.2), (2.735, 2.1), (2.782, 2), (2.814, 2.2), (2.863, 21),
      (2.894, 20.1), (2.942, 19.3), (2.974, 20.8), (3.022, 20.7), (3.054, 20.8), (3.103, 19.8),
      (3.134, 19.6), (3.182, 20.7), (3.214, 18.9), (3.262, 19.4), (3.310, 245.5), (3.342, 20.7),
      (3.374, 20.6), (3.422, 20.6), (3.486, 400), (3.502, 19), (3.534, 20.5), (3.583, 20.5),
      (3.614, 20.5), (3.662, 20.5), (3.727, 20.5), (3.742, 20.5), (3.774, 20.5), (3.822, 20.5),
      (3.854, 20.5), (3.902, 20.5), (3.934, 20.5), (3.982, 20.5), (4.030, 20.5), (4.062, 20.5),
      (4.094, 48.9), (4.142, 51.6), (4.174, 56.9), (4.222, 60.3), (4.254, 63.5), (4.303, 65),
      (4.335, 68.5), (4.382, 69.8), (4.414, 70), (4.462, 158.5), (4.527, 400), (4.542, 71.2),
      (4.574, 70.6), (4.623, 72.2), (4.654, 69.7), (4.703, 70.7), (4.734, 71.8), (4.782, 70.4),
      (4.814, 71.6), (4.862, 70.6), (4.894, 71.6), (4.942, 71.4), (4.974, 72), (5.022, 11),
      (5.070, 271.6), (5.102, 71), (5.134, 70.4), (5.182, 69.8), (5.214, 68.6), (5.262, 67),
      (5.294, 63.8), (5.342, 58.4), (5.374, 54.4), (5.422, 49), (5.454, 43.2), (5.503, 38),
      (5.534, 32.8), (5.582, 29.1), (5.614, 25.1), (5.662, 23.2), (5.694, 22), (5.742, 19.6),
      (5.774, 19.9), (5.822, 19.9), (5.854, 19.5), (5.902, 18.4), (5.934, 19.4), (5.982, 20.4),
      (6.015, 19.3), (6.062, 19.9), (6.095, 20), (6.127, 7), (6.174, 6.7), (6.206, 7.1),
      (6.254, 7.1), (6.286, 6.3), (6.335, 20.8), (6.382, 22.9), (6.414, 24.1), (6.462, 26.4),
      (6.494, 30.1), (6.542, 32.9), (6.574, 38.3), (6.623, 41.7), (6.655, 45.2), (6.702, 50.3),
      (6.734, 53.2), (6.782, 56.8), (6.814, 59.9), (6.862, 63.4), (6.894, 65.3), (6.943, 68.2),
      (6.974, 70.1), (7.022, 70.1), (7.071, 400), (7.102, 33.9), (7.134, 33.7), (7.182, 34.3),
      (7.214, 34.1), (7.262, 69.2), (7.294, 70.1), (7.342, 70.6), (7.374, 69.6), (7.438, 400),
      (7.454, 70.7), (7.502, 69.9), (7.534, 70.8), (7.582, 70.4), (7.614, 70), (7.663, 70.6),
      (7.694, 69.4), (7.742, 68.8), (7.774, 70.6), (7.822, 70.1), (7.855, 70.3), (7.902, 70),
      (7.950, 400), (7.967, 7.5), (8.030, 400), (8.047, 7.5), (8.110, 400), (8.142, 64.8),
      (8.191, 400), (8.223, 58.9), (8.270, 400), (8.302, 50.3), (8.350, 400), (8.382, 45),
      (8.430, 400), (8.463, 36.6), (8.510, 400), (8.526, 29.5), (8.590, 400), (8.606, 23.6),
      (8.670, 400), (8.686, 20.3), (8.750, 400), (8.766, 20.8), (8.830, 400), (8.846, 20.1),
      (8.910, 400), (8.926, 20.3), (8.991, 400), (9.006, 19.5), (9.054, 20), (9.087, 19.3),
      (9.135, 19.5), (9.166, 19.9), (9.214, 20.4), (9.246, 20.1), (9.294, 6.6), (9.326, 6.3),
      (9.374, 6.4), (9.439, 400), (9.454, 20.7), (9.486, 20.6), (9.534, 134.8), (9.567, 19.9),
      (9.630, 400), (9.679, 400), (9.694, 20.2), (9.727, 20.6), (9.774, 22.6), (9.806, 22.3),
      (9.854, 24.9), (9.886, 28.3), (9.934, 77.8), (9.966, 33.9), (10.014, 36.4), (10.046, 40.2),
      (10.094, 44.5), (10.127, 47.4), (10.175, 51.9), (10.222, 55.2), (10.270, 400), (10.302, 60),
      (10.334, 26.9), (10.366, 28.5), (10.414, 28.9), (10.447, 29.6), (10.510, 400),
      (10.542, 71.1), (10.574, 72.8), (10.623, 72.2), (10.654, 70), (10.702, 71.7), (10.734, 70.4),
      (10.782, 71.1), (10.814, 70.9), (10.862, 71.1), (10.894, 70.5), (10.942, 71.2),
      (10.974, 71.5), (11.022, 71.4), (11.054, 71.3), (11.103, 71), (11.134, 70.2), (11.182, 71.6),
      (11.214, 71.2), (11.262, 71), (11.294, 69.7), (11.342, 70.7), (11.374, 69.3), (11.422, 70.1),
      (11.454, 67.7), (11.487, 65.3), (11.727, 62), (11.727, 57.8), (11.727, 55.1), (11.727, 52),
      (11.727, 49.3), (11.727, 44.7), (11.775, 41.3), (11.806, 37.8), (11.855, 34.5),
      (11.887, 33.2), (11.934, 28.7), (11.966, 27.2),
    ]
    let lines = readings.map { (t: $0.t, line: "s:\($0.cm)") }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .deadlift))
      .reports
    #expect(reports.map(\.reps.count) == [3])
    let lockout = reports.first?.reps.first?.concentricEndS ?? 0
    #expect(abs(lockout - 4.44) < 0.1, "\(lockout)")
  }

  /// The sonar under an overhead-press bar on the hooks switching between
  /// the floor (135 cm) and a rack foot (102 cm) in BLE bursts (independent
  /// looked-at seed 70019, 263–275.5 s). A switch up is a first rise seen
  /// at its ends only; the way back "down" it later read, 129 then 105,
  /// has one reading just inside the middle: no descent seen, no rep.
  @Test func aSwitchUpIsNoFirstRiseWithoutADescentSeen() {
    let readings: [(t: Double, cm: Double)] = [
      (0.009, 99), (0.009, 102), (0.009, 105), (0.009, 102), (0.107, 104), (0.107, 103),
      (0.108, 106), (0.108, 100), (0.209, 138), (0.209, 135), (0.307, 136), (0.307, 135),
      (0.307, 134), (0.307, 105), (0.409, 99), (0.409, 0), (0.409, 104), (0.409, 105),
      (0.508, 104), (0.508, 101), (0.508, 139), (0.508, 137), (0.508, 0), (0.606, 110),
      (0.607, 103), (0.607, 106), (0.607, 103), (0.707, 98), (0.707, 103), (0.707, 103),
      (0.707, 135), (0.809, 132), (0.809, 0), (0.909, 0), (0.909, 0), (0.909, 109), (1.007, 0),
      (1.008, 104), (1.106, 103), (1.107, 137), (1.107, 134), (1.107, 105), (1.209, 104),
      (1.209, 137), (1.210, 0), (1.210, 136), (1.309, 137), (1.309, 136), (1.309, 136),
      (1.309, 100), (1.409, 133), (1.409, 140), (1.410, 100), (1.410, 137), (1.509, 133),
      (1.509, 127), (1.509, 134), (1.609, 0), (1.609, 136), (1.609, 0), (1.708, 135), (1.709, 0),
      (1.709, 102), (1.808, 134), (1.808, 105), (1.808, 136), (1.809, 137), (1.907, 0),
      (1.907, 103), (1.907, 103), (2.008, 110), (2.008, 101), (2.008, 102), (2.008, 101),
      (2.109, 0), (2.109, 134), (2.109, 140), (2.208, 134), (2.208, 137), (2.208, 101),
      (2.208, 101), (2.309, 102), (2.309, 135), (2.309, 134), (2.309, 136), (2.409, 0),
      (2.409, 102), (2.509, 103), (2.509, 100), (2.709, 101), (2.709, 137), (2.709, 135),
      (2.709, 136), (2.709, 133), (2.710, 102), (2.710, 132), (2.807, 139), (2.807, 104),
      (2.807, 102), (2.807, 139), (2.909, 103), (2.909, 102), (2.909, 102), (2.910, 135),
      (3.009, 134), (3.009, 135), (3.009, 103), (3.009, 104), (3.207, 103), (3.207, 132),
      (3.207, 103), (3.207, 102), (3.207, 103), (3.207, 0), (3.306, 135), (3.306, 134),
      (3.307, 128), (3.307, 136), (3.407, 136), (3.407, 135), (3.407, 135), (3.407, 139),
      (3.508, 136), (3.508, 137), (3.508, 135), (3.508, 134), (3.608, 133), (3.608, 137),
      (3.608, 0), (3.608, 99), (3.706, 101), (3.707, 102), (3.707, 103), (3.707, 136),
      (3.808, 134), (3.808, 137), (3.808, 133), (3.808, 136), (3.907, 102), (3.907, 137),
      (3.907, 0), (4.509, 134), (4.509, 104), (4.509, 103), (4.509, 102), (4.509, 0), (4.509, 142),
      (4.509, 139), (4.509, 101), (4.509, 103), (4.510, 102), (4.510, 99), (4.510, 100),
      (4.510, 0), (4.510, 102), (4.510, 106), (4.609, 102), (4.708, 135), (4.709, 0), (4.709, 101),
      (4.709, 102), (4.709, 100), (4.808, 136), (4.808, 0), (5.007, 103), (5.007, 0), (5.008, 139),
      (5.008, 135), (5.008, 0), (5.008, 104), (5.107, 105), (5.107, 105), (5.107, 105),
      (5.107, 134), (5.208, 109), (5.208, 105), (5.208, 135), (5.208, 0), (5.208, 101),
      (5.309, 100), (5.309, 103), (5.309, 102), (5.309, 136), (5.407, 244), (5.407, 0),
      (5.407, 137), (5.407, 157), (5.507, 135), (5.507, 135), (5.507, 134), (5.507, 136),
      (5.709, 136), (5.709, 101), (5.809, 105), (5.809, 135), (5.809, 136), (5.809, 106),
      (5.908, 135), (5.908, 102), (5.908, 102), (5.908, 102), (6.008, 102), (6.008, 107),
      (6.009, 0), (6.108, 105), (6.109, 137), (6.109, 99), (6.109, 100), (6.208, 101),
      (6.208, 103), (6.208, 134), (6.208, 133), (6.208, 102), (6.309, 103), (6.309, 102),
      (6.309, 0), (6.309, 106), (6.409, 136), (6.409, 136), (6.409, 0), (6.409, 137), (6.508, 135),
      (6.508, 139), (6.508, 104), (6.508, 103), (6.608, 107), (6.608, 0), (6.608, 133),
      (6.608, 137), (6.709, 137), (6.709, 132), (6.808, 135), (6.808, 104), (6.808, 136),
      (6.808, 136), (6.909, 0), (6.909, 134), (6.909, 137), (6.909, 103), (7.407, 105),
      (7.407, 103), (7.407, 0), (7.407, 102), (7.407, 133), (7.407, 138), (7.408, 132), (7.408, 0),
      (8.008, 103), (8.008, 0), (8.008, 103), (8.008, 0), (8.008, 102), (8.008, 0), (8.008, 102),
      (8.406, 133), (8.407, 137), (8.407, 101), (8.407, 103), (9.207, 136), (9.208, 135),
      (9.208, 101), (9.208, 101), (9.208, 101), (9.208, 103), (9.208, 103), (9.208, 131),
      (9.208, 103), (9.208, 137), (9.406, 135), (9.406, 136), (9.508, 136), (9.509, 101),
      (9.607, 103), (9.607, 103), (9.608, 107), (9.608, 136), (9.708, 100), (9.708, 100),
      (9.708, 131), (9.709, 102), (9.907, 102), (9.908, 102), (9.908, 133), (9.908, 139),
      (9.908, 0), (9.908, 101), (10.007, 102), (10.007, 134), (10.007, 136), (10.007, 135),
      (10.109, 135), (10.109, 136), (10.109, 138), (10.109, 103), (10.207, 106), (10.207, 101),
      (10.207, 101), (10.207, 100), (10.308, 139), (10.308, 137), (10.407, 135), (10.407, 104),
      (10.408, 104), (10.408, 136), (10.507, 137), (10.507, 139), (10.507, 0), (10.508, 102),
      (10.508, 103), (10.608, 103), (10.608, 108), (10.608, 101), (10.608, 103), (10.707, 0),
      (10.707, 135), (10.707, 137), (10.707, 134), (10.809, 136), (10.809, 136), (10.809, 139),
      (10.809, 134), (10.908, 138), (10.908, 135), (10.908, 135), (10.908, 0), (11.008, 103),
      (11.008, 102), (11.008, 103), (11.008, 136), (11.109, 138), (11.109, 104), (11.109, 106),
      (11.109, 101), (11.207, 103), (11.207, 137), (11.207, 134), (11.207, 129), (11.308, 100),
      (11.308, 102), (11.408, 105), (11.408, 103), (11.508, 97), (11.508, 136), (11.508, 132),
      (11.508, 135), (11.708, 103), (11.708, 103), (11.708, 138), (11.709, 101), (11.709, 104),
      (11.709, 100), (11.807, 104), (11.807, 104), (11.807, 0), (11.909, 104), (11.909, 135),
      (11.909, 108), (11.909, 0), (12.009, 103), (12.009, 103), (12.009, 102), (12.009, 101),
      (12.207, 101), (12.207, 104), (12.207, 101), (12.207, 103), (12.207, 102), (12.208, 135),
      (12.308, 102), (12.308, 103), (12.308, 138), (12.309, 135), (12.309, 104), (12.407, 105),
      (12.407, 134), (12.407, 101), (12.407, 137),
    ]
    let lines = readings.map { (t: $0.t, line: "s:\($0.cm)") }
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: .overheadPress))
    #expect(events.reports.isEmpty, "\(events.reports.map { $0.reps.map(\.concentricStartS) })")
  }

  /// A bench bar picked up from the floor (22 cm) and carried to the bench
  /// at 90 cm, the sonar reading the floor and the carrier's legs (30–57
  /// cm) in turns at 20 Hz (independent looked-at seed 20046, 4–16 s). Its
  /// steps down passed for the descent from a stand, and a step back up,
  /// 39 to 90 cm in one period, for the first rep of a set of bench
  /// presses (56.9 cm at 1.4 m/s; `RepMeasurer.jumpedAcross`).
  @Test func aSonarSwitchingUnderACarriedBarStartsNoSet() {
    let carried: [Double] = [
      21, 23, 24, 22, 23, 400, 22, 25, 22, 20, 20, 20, 23, 19, 23, 23, 28, 21, 20, 22, 20, 400, 23,
      16, 23, 26, 22, 22, 400, 24, 20, 22, 23, 23, 22, 24, 22, 22, 22, 23, 22, 400, 26, 22, 20, 23,
      22, 20, 29, 25, 400, 28, 23, 21, 23, 22, 24, 21, 23, 24, 20, 33, 400, 24, 20, 19, 22, 400,
      23, 24, 23, 21, 21, 25, 24, 21, 23, 22, 22, 21, 23, 25, 26, 30, 30, 34, 34, 39, 400, 47, 50,
      53, 58, 62, 400, 65, 400, 75, 400, 400, 400, 400, 400, 86, 400, 90, 400, 91, 400, 90, 400,
      93, 400, 89, 88, 87, 93, 400, 400, 89, 89, 90, 92, 90, 400, 90, 87, 88, 90, 88, 91, 88, 91,
      90, 49, 48, 30, 90, 400, 400, 56, 57, 56, 93, 38, 37, 37, 39, 90, 400, 88, 89, 84, 91, 91,
      93, 93, 93, 95, 93, 91, 90, 41, 400, 89, 91, 400, 30, 30, 30, 30, 90, 90, 85, 88, 56, 89, 87,
      83, 90, 89, 91, 89, 88, 400, 90, 92, 91, 71, 71, 67, 89, 88, 86, 88, 89, 89, 93, 93, 93, 91,
      89, 400, 89, 92, 94, 89, 400, 89, 86, 93, 89, 88, 87, 93, 86, 400, 88, 90, 400, 89, 45, 45,
      43, 400, 44, 89, 91, 89, 91, 90, 88, 89, 89, 92, 92, 95, 110, 96, 97,
    ]
    let lines = carried.enumerated().map {
      (t: Double($0.offset) / 20, line: "s:\(Int($0.element))")
    }
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: .benchPress))
    #expect(events.reports.isEmpty, "\(events.reports.map { $0.reps.map(\.concentricStartS) })")
  }

  /// The step up from the legs to the carried bar, alone and with the
  /// switching before it: only a sonar that stepped both ways between the
  /// two ends, faster than a bar, in the second before makes it no bar's.
  @Test func aStepIsNoBarsOnlyAmidASonarSwitchingBetweenTheEnds() {
    let rise = TurnFinder.Rise(
      valley: TimedHeight(t: 11.25, cm: 37), peak: TimedHeight(t: 11.8, cm: 93),
      previousPeak: TimedHeight(t: 9.5, cm: 91), arrivedAtValleyT: 11.2)
    func readings(_ pairs: [(Double, Double)]) -> [TimedHeight] {
      pairs.map { TimedHeight(t: $0.0, cm: $0.1) }
    }
    // The gate kept the legs and the bar from 11.6 s; it rejected 90 at 11.4.
    let kept = readings([
      (11.0, 56), (11.05, 57), (11.1, 56), (11.2, 38), (11.25, 37), (11.3, 37), (11.35, 39),
      (11.6, 84), (11.65, 91), (11.7, 91), (11.75, 93), (11.8, 93),
    ])
    let switching = readings([
      (10.55, 91), (10.6, 90), (10.65, 90), (10.7, 49), (10.75, 48), (10.8, 30), (10.85, 90),
      (11.0, 56), (11.05, 57), (11.1, 56), (11.15, 93), (11.2, 38), (11.25, 37), (11.3, 37),
      (11.35, 39), (11.4, 90), (11.5, 88), (11.55, 89), (11.6, 84),
    ])
    func jumped(_ kept: [TimedHeight], sent: [TimedHeight]) -> Bool {
      RepMeasurer.jumpedAcross(kept, rise: rise) { from, to in
        sent.filter { $0.t > from && $0.t < to }
      }
    }
    #expect(jumped(kept, sent: switching))
    // The carrier's legs read at any height: steps from the top to them count.
    let legs = switching.map { $0.t < 11.2 && $0.cm < 60 ? TimedHeight(t: $0.t, cm: 52) : $0 }
    #expect(jumped(kept, sent: legs))
    // Without the turns before it: an echo under a bar, or a late reading.
    let alone = switching.filter { $0.t >= 11.2 }
    #expect(!jumped(kept, sent: alone))
    // A reading in the middle: the bar's own ramp.
    let ramp = kept + [TimedHeight(t: 11.45, cm: 65)]
    #expect(!jumped(ramp.sorted { $0.t < $1.t }, sent: switching))
    // The legs' reading repeated since 10.9 s: a stuck sonar's run, timed
    // from its first reading, is crossed at a bar's speed.
    let stuck =
      readings((0..<10).map { (10.9 + Double($0) * 0.05, 39) }) + kept.filter { $0.t >= 11.6 }
    let stuckSent = switching.filter { $0.t < 10.9 } + stuck + [TimedHeight(t: 11.4, cm: 90)]
    #expect(!jumped(stuck, sent: stuckSent.sorted { $0.t < $1.t }))
  }

  /// A squat bar on the hooks over a sonar switching between the floor
  /// (145 cm) and something 45 cm nearer (independent looked-at 30062,
  /// 153.5–155.7 s, BLE at 22 Hz, spaced evenly here). The gate followed
  /// the near target, then one reading between (132.7) and the floor: a
  /// ramp, by the kept readings, from a descent seen the same way. The
  /// readings sent step between the two ends faster than a bar, again and
  /// again (`RepMeasurer.switchingSteps`).
  @Test func aSonarSteppingBetweenTheEndsAgainAndAgainMakesNoFirstRep() {
    let values: [Double] = [
      142.2, 142.4, 149.1, 135.6, 140.0, 144.0, 144.4, 142.2, 143.9, 152.6, 144.5, 145.9, 142.0,
      145.1, 104.3, 107.1, 106.6, 104.2, 107.9, 104.7, 111.5, 102.6, 105.0, 144.0, 141.0, 151.3,
      99.9, 103.0, 99.5, 145.3, 151.4, 148.3, 150.3, 102.5, 105.7, 108.8, 146.1, 100.8, 132.7,
      145.1, 140.4, 102.2, 103.5, 145.9, 104.8, 106.1, 105.8, 101.7, 103.5, 151.3,
    ]
    let sent = values.enumerated().map { TimedHeight(t: Double($0.offset) * 0.045, cm: $0.element) }
    // The near target's readings up to 108.8, then the floor's from 132.7.
    let kept = sent.prefix(36).filter { $0.cm < 120 } + sent[38...].filter { $0.cm > 120 }
    let rise = TurnFinder.Rise(
      valley: TimedHeight(t: sent[27].t, cm: 100.8), peak: sent[49],
      previousPeak: TimedHeight(t: -2, cm: 148.5), arrivedAtValleyT: sent[26].t)
    func jumped(_ sent: [TimedHeight]) -> Bool {
      RepMeasurer.jumpedAcross(kept, rise: rise) { from, to in
        sent.filter { $0.t > from && $0.t < to }
      }
    }
    #expect(jumped(sent))
    // Had the sonar sent only what the gate kept, nothing says it switched.
    #expect(!jumped(kept))
  }

  /// A squat bar on the hooks in the rest over a sonar switching between
  /// something at 104 cm and the floor at 141 (BLE at 22 Hz, no exercise
  /// named; independent looked-at 90061, 165–169 s). One stray at 152 cm
  /// made the rise's peak, and the switch's upper target fell under its
  /// top fifth: its steps were not counted and the switch, read as a
  /// ramp, was a set of one "rep" of 45 cm (`RepMeasurer.switchingTopShare`).
  @Test func aStrayOverASwitchingSonarHidesNoSwitch() {
    let readings: [(t: Double, cm: Double)] = [
      (0.017, 135), (0.062, 141), (0.107, 140), (0.153, 141), (0.198, 139), (0.334, 103),
      (0.379, 99), (0.467, 138), (0.512, 144), (0.558, 139), (0.648, 0), (0.692, 143),
      (0.739, 143), (0.784, 144), (0.827, 106), (0.872, 104), (0.918, 107), (0.964, 139),
      (1.008, 140), (1.052, 142), (1.099, 145), (1.188, 139), (1.234, 138), (1.279, 139),
      (1.322, 142), (1.369, 104), (1.459, 104), (1.502, 0), (1.548, 101), (1.594, 142),
      (1.637, 141), (1.682, 146), (1.729, 103), (1.772, 105), (1.817, 102), (1.863, 107),
      (1.908, 102), (1.954, 108), (1.998, 102), (2.042, 105), (2.133, 141), (2.178, 106),
      (2.222, 101), (2.267, 107), (2.312, 104), (2.358, 142), (2.402, 108), (2.449, 139),
      (2.493, 105), (2.583, 141), (2.627, 0), (2.672, 139), (2.718, 138), (2.808, 138),
      (2.854, 140), (2.898, 142), (2.988, 105), (3.034, 108), (3.122, 100), (3.167, 152),
      (3.212, 145), (3.257, 143), (3.304, 140), (3.348, 140), (3.483, 0), (3.572, 106),
      (3.617, 105), (3.662, 104), (3.709, 101), (3.752, 132), (3.799, 148), (3.843, 141),
      (3.843, 103), (3.933, 103), (3.979, 101),
    ]
    let lines = readings.map { (t: $0.t, line: "s:\(Int($0.cm))") }
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: nil))
    #expect(events.reports.isEmpty, "\(events.reports.map { $0.reps.map(\.concentricStartS) })")
    // Without the stray the switch's steps were counted already.
    let unstrayed = analyze(
      lines.filter { $0.line != "s:152" }, session: SessionInfo(source: "test", exercise: nil))
    #expect(unstrayed.reports.isEmpty)
  }
}
