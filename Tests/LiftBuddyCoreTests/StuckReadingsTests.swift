import Testing

@testable import LiftBuddyCore

/// A sonar that misses its echoes repeats its last value while the bar
/// moves on (`StuckReadings`, `TrackGate`).
@Suite struct StuckReadingsTests {
  func readings(_ values: [Double], rate: Double = 20) -> [TimedHeight] {
    values.enumerated().map { TimedHeight(t: Double($0.offset) / rate, cm: $0.element) }
  }

  @Test func repeatsThatEndInAJumpGo() {
    // At rest at 77, then 77 six more times while the bar rises unseen, then
    // 95: 18 cm in one reading, out of reach of a bar that sat still.
    let r = readings([76, 75.6, 77, 77, 77, 77, 77, 77, 77, 95.2, 97.2, 100.5])
    let kept = StuckReadings.removed(from: r)
    #expect(kept.map(\.cm) == [76, 75.6, 77, 95.2, 97.2, 100.5])
    // Bridged: the repeats become the straight path from the last good
    // reading to the next one.
    let bridged = StuckReadings.removed(from: r, bridged: true)
    #expect(bridged.count == r.count)
    #expect(bridged.map(\.t) == r.map(\.t))
    #expect(abs(bridged[5].cm - (77 + (95.2 - 77) * 3 / 7)) < 1e-9)
  }

  @Test func aFrozenRunOnANoisyMillimetreClipGoesHoweverItEnds() {
    // Rising at 1 m/s, then 108.7 eight times while the bar locks out and
    // is lowered again unseen, then 115.5: 6.8 cm from the run, a step a
    // bar could take, so only the run itself tells it was frozen.
    let values = [81.7, 96.1, 97.9] + [Double](repeating: 108.7, count: 8) + [115.5, 112.1, 107.9]
    let r = readings(values)
    let kept = StuckReadings.removed(from: r, noiseCm: StuckReadings.frozenNoiseCm)
    #expect(kept.map(\.cm) == [81.7, 96.1, 97.9, 108.7, 115.5, 112.1, 107.9])
    // A sonar quieter than that, or a whole-centimetre clip, repeats a
    // value at rest: such runs stay unless they end in a jump.
    #expect(StuckReadings.removed(from: r, noiseCm: 0.1) == r)
    let whole = readings([82, 96, 98] + [Double](repeating: 109, count: 8) + [115, 112, 108])
    #expect(StuckReadings.removed(from: whole, noiseCm: 1) == whole)
    // A run of five on a noisy millimetre clip is still a bar at rest.
    let five = readings([81.7, 96.1, 97.9] + [Double](repeating: 108.7, count: 5) + [109.2])
    #expect(StuckReadings.removed(from: five, noiseCm: 1) == five)
  }

  /// A sonar frozen for 1.3 s over a squat's lockout and the next rep's
  /// descent (independent looked-at 1740003, 251–263 s, a millimetre clip
  /// at 15 Hz, typical noise): the run, left in, read as the bar standing
  /// 20 cm under the set's top, a stall, and the rep after it as lifted
  /// out of a failed one (`RepRules.followsAStall`). The next one
  /// (261.01–261.72 s by the simulator's truth) counts. So does the rep
  /// the run hid (258.28–258.97 s, 60 cm), since the first reading after
  /// a run that long may lie as far off as the bar could have gone
  /// (`TrackGate.stuckSince`): it reads 40 cm, to where the sonar froze.
  @Test func aLockoutTheSonarFrozeOnIsNoStall() {
    let readings: [(t: Double, cm: Double)] = [
      (251.010, 130.7), (251.074, 127.9), (251.154, 126.2), (251.218, 127.7), (251.282, 128.2),
      (251.346, 127.8), (251.410, 121.8), (251.474, 117.0), (251.538, 112.7), (251.618, 107.8),
      (251.682, 106.7), (251.746, 101.7), (251.810, 97.7), (251.874, 89.9), (251.938, 82.9),
      (252.002, 82.6), (252.082, 80.3), (252.146, 75.6), (252.210, 75.9), (252.274, 73.5),
      (252.338, 75.0), (252.402, 81.2), (252.482, 85.5), (252.546, 93.2), (252.610, 105.1),
      (252.674, 112.4), (252.738, 119.8), (252.818, 123.0), (252.882, 122.2), (252.946, 126.8),
      (253.010, 131.5), (253.074, 128.3), (253.138, 130.1), (253.218, 127.9), (253.282, 127.8),
      (253.346, 130.4), (253.410, 129.2), (253.474, 130.5), (253.538, 131.2), (253.618, 129.6),
      (253.682, 128.7), (253.746, 127.2), (253.810, 127.8), (253.874, 126.2), (253.938, 123.3),
      (254.002, 121.2), (254.082, 117.2), (254.146, 112.3), (254.210, 106.0), (254.274, 106.1),
      (254.338, 101.4), (254.402, 96.5), (254.466, 92.5), (254.546, 88.8), (254.610, 85.8),
      (254.674, 81.8), (254.738, 75.7), (254.802, 74.8), (254.866, 74.7), (254.946, 72.0),
      (255.010, 70.9), (255.074, 75.4), (255.138, 84.8), (255.202, 91.2), (255.266, 101.6),
      (255.410, 118.2), (255.474, 118.7), (255.538, 127.2), (255.602, 129.4), (255.682, 128.0),
      (255.746, 126.2), (255.810, 129.7), (255.874, 127.4), (255.938, 123.0), (256.002, 131.1),
      (256.082, 125.9), (256.146, 131.8), (256.210, 130.9), (256.274, 128.5), (256.338, 126.8),
      (256.402, 130.6), (256.466, 128.2), (256.546, 129.7), (256.610, 128.8), (256.674, 129.0),
      (256.738, 128.8), (256.802, 129.5), (256.866, 131.5), (256.946, 126.1), (257.010, 129.6),
      (257.074, 129.9), (257.138, 128.0), (257.202, 130.4), (257.266, 128.8), (257.346, 128.1),
      (257.410, 124.7), (257.474, 123.8), (257.538, 118.2), (257.602, 112.8), (257.666, 106.1),
      (257.730, 101.3), (257.874, 89.6), (257.938, 85.7), (258.002, 84.9), (258.066, 80.1),
      (258.130, 72.7), (258.194, 68.7), (258.274, 69.6), (258.338, 70.1), (258.402, 73.0),
      (258.466, 81.7), (258.530, 96.1), (258.610, 97.9), (258.674, 108.7), (258.738, 108.7),
      (258.802, 108.7), (258.866, 108.7), (258.930, 108.7), (259.010, 108.7), (259.074, 108.7),
      (259.138, 108.7), (259.202, 108.7), (259.266, 108.7), (259.330, 108.7), (259.410, 108.7),
      (259.474, 108.7), (259.538, 108.7), (259.602, 108.7), (259.666, 108.7), (259.730, 108.7),
      (259.810, 108.7), (259.874, 108.7), (260.002, 108.7), (260.066, 120.3), (260.130, 115.5),
      (260.210, 112.1), (260.274, 107.9), (260.338, 104.1), (260.402, 97.6), (260.466, 92.2),
      (260.530, 88.1), (260.594, 86.9), (260.674, 80.6), (260.738, 77.5), (260.802, 77.1),
      (260.866, 73.3), (260.930, 67.1), (260.994, 67.5), (261.058, 72.0), (261.138, 73.8),
      (261.202, 82.2), (261.266, 89.9), (261.330, 99.3), (261.394, 105.7), (261.474, 113.6),
      (261.538, 120.0), (261.602, 122.3), (261.666, 126.4), (261.794, 127.4), (261.874, 129.2),
      (261.938, 129.1), (262.002, 132.6), (262.066, 127.2), (262.130, 129.5), (262.194, 128.6),
      (262.274, 129.5), (262.338, 132.2), (262.402, 128.2), (262.466, 128.6), (262.530, 128.8),
      (262.594, 131.0), (262.674, 126.5), (262.738, 130.9), (262.802, 131.3), (262.866, 132.8),
      (262.930, 133.9), (262.994, 128.5),
    ]
    let lines = readings.map { (t: $0.t, line: "s:\($0.cm)") }
    let reps = analyze(lines, session: SessionInfo(source: "test", exercise: .squat)).reports
      .flatMap(\.reps)
    #expect(reps.count == 4, "\(reps.map(\.concentricEndS))")
    if reps.count == 4 { #expect(abs(reps[2].concentricEndS - 258.97) < 0.5) }
    #expect(reps.last.map { abs($0.concentricEndS - 261.72) < 0.15 } == true)
  }

  /// A whole-centimetre clip frozen at 96 cm for 0.9 s over a bench
  /// press's lockout (independent looked-at 550000, 485.9–486.9 s, BLE,
  /// dirty: σ about 1 cm), then, after two lost pings, 106 at the top:
  /// 10 cm from the run in 0.15 s, a step a bar could take, and whole
  /// centimetres, so neither older rule drops it. Sixteen equal readings
  /// of a bar at rest read with 1 cm of noise come less than once in 10⁶
  /// runs.
  @Test func aWholeCentimetreRunLongerThanChanceIsFrozen() {
    func frozen(_ run: Int) -> [TimedHeight] {
      let before = [67.0, 71, 75, 83, 89] + [Double](repeating: 96, count: run)
      let rising = before.enumerated().map {
        TimedHeight(t: Double($0.offset) * 0.05, cm: $0.element)
      }
      let resumed = Double(before.count + 2) * 0.05
      let after = [106.0, 105, 100, 99].enumerated().map {
        TimedHeight(t: resumed + Double($0.offset) * 0.05, cm: $0.element)
      }
      return rising + after
    }
    let r = frozen(16)
    #expect(StuckReadings.frozenByChance(runLength: 16, noiseCm: 1))
    #expect(
      StuckReadings.removed(from: r, noiseCm: 1).map(\.cm) == [
        67, 71, 75, 83, 89, 96, 106, 105, 100, 99,
      ])
    // A quieter sonar's noise may be the clip's rounding alone: a still bar
    // repeats its value for as long as it rests (`minChanceNoiseCm`).
    #expect(StuckReadings.removed(from: r, noiseCm: 0.4) == r)
    // Eight at σ = 1 cm (p⁷ ≈ 0.0012) and fifteen at σ = 0.5 cm (p¹⁴ ≈
    // 0.005) are within what a resting bar repeats.
    #expect(!StuckReadings.frozenByChance(runLength: 8, noiseCm: 1))
    #expect(StuckReadings.frozenByChance(runLength: 9, noiseCm: 1))
    #expect(!StuckReadings.frozenByChance(runLength: 15, noiseCm: 0.5))
    #expect(StuckReadings.frozenByChance(runLength: 20, noiseCm: 0.5))
    let eight = frozen(8)
    #expect(StuckReadings.removed(from: eight, noiseCm: 1) == eight)
  }

  @Test func aBarThatRestsAndLeavesKeepsItsReadings() {
    // A resting bar on a whole-centimetre clip reads one value for a long
    // time; leaving rest it moves at most a few cm in the first reading.
    let rest = [Double](repeating: 80, count: 12)
    let rise = (1...8).map { 80 + 1.5 * Double($0 * $0) }
    let r = readings(rest + rise)
    #expect(StuckReadings.removed(from: r) == r)
    // One reading off after a rest is a spike, not the bar moved on.
    let spike = readings([80, 80, 80, 80, 80, 95, 80, 80])
    #expect(StuckReadings.removed(from: spike) == spike)
    // Two repeats are a resting bar often enough, whatever follows.
    let two = readings([60, 61, 61, 80, 81])
    #expect(StuckReadings.removed(from: two) == two)
  }

  @Test func aSquatBottomBelowAFrozenRunIsFollowed() {
    // As in a warm-up stream: the bar comes down at 0.4–0.5 m/s, the sonar
    // freezes at 170.6 for half a second while the bar goes on down to
    // 146 cm, then reads it there. The readings at the bottom are as far
    // from the frozen value as the bar went since the run began: they are
    // passed on, not dropped as out of reach.
    let down = [193.4, 192.1, 190.4, 187.3, 183.8, 179.8, 174.3, 170.6]
    let frozen = [Double](repeating: 170.6, count: 9)
    let bottom = [150.2, 148.0, 147.0, 146.5, 146.1, 147.4, 157.1, 168.4, 179.9, 189.5]
    var d = Despiker()
    var kept: [Double] = []
    for (i, cm) in (down + frozen + bottom).enumerated() {
      d.push(TimedHeight(t: Double(i) / 20, cm: cm)) { kept.append($0.cm) }
    }
    d.flush { kept.append($0.cm) }
    #expect(Array(kept.suffix(bottom.count)) == bottom, "\(kept)")
  }

  @Test func aSpikeAfterARestOnOneValueStillGoes() {
    // The counterpart: a bar resting on one value and one reading 20 cm
    // off. The next reading is back at rest: the spike is removed.
    var v = [Double](repeating: 100, count: 20)
    v[12] = 120
    var d = Despiker()
    var kept: [Double] = []
    for (i, cm) in v.enumerated() {
      d.push(TimedHeight(t: Double(i) / 20, cm: cm)) { kept.append($0.cm) }
    }
    d.flush { kept.append($0.cm) }
    #expect(kept.allSatisfy { $0 == 100 }, "\(kept)")
    #expect(d.removed == 1)
  }

  @Test func legEchoesAfterAShortRestOnOneValueStillGo() {
    // As in a clean from the hang on a whole-cm clip: the bar rests at
    // 72–73 cm, then reads 72 for 0.45 s (a short run, but begun at rest),
    // then the thighs under the sonar read 57 and 56 before the bar is
    // seen again. No bar leaves rest 15 cm in one reading: the repeats
    // are the bar, the 57 and 56 are not.
    var v: [Double] = (0..<20).map { $0 % 2 == 0 ? 72 : 73 }
    v += [Double](repeating: 72, count: 9)
    v += [57, 56]
    v += [Double](repeating: 72, count: 10)
    var d = Despiker()
    var kept: [Double] = []
    for (i, cm) in v.enumerated() {
      d.push(TimedHeight(t: Double(i) / 20, cm: cm)) { kept.append($0.cm) }
    }
    d.flush { kept.append($0.cm) }
    #expect(kept.allSatisfy { $0 >= 72 }, "\(kept)")
    #expect(d.removed == 2)
  }

  @Test func repsTheSonarFrozeOnAreMeasuredAcrossTheRun() {
    // Squats on a whole-centimetre clip; on every rep the sonar repeats the
    // bottom's value for the first 0.4 s of the drive (the bar rises 27 of
    // its 55 cm unseen). Left in, the repeats read as a longer pause: the
    // start lands 0.35–0.41 s late and the reps read 1.16–1.31 m/s against
    // 0.69. Dropped, the start is fitted across the gap from the readings
    // after it (0.08–0.11 s early: the ramp's curvature is extrapolated
    // over half a second) and the reps read 0.51–0.60 m/s.
    let lift = SyntheticLift.squat(reps: 4)
    let truth = lift.truth
    let frozen = lift.lines(rateHz: 20).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:"),
        let rep = truth.first(where: { line.t >= $0.start && line.t < $0.start + 0.4 })
      else { return line }
      return (line.t, "s:\(Int(lift.height(at: rep.start).rounded()))")
    }
    let reports = analyze(frozen).reports
    #expect(reports.count == 1)
    guard let report = reports.first else { return }
    #expect(report.reps.count == 4)
    for (got, want) in zip(report.reps, truth) {
      #expect(abs(got.concentricStartS - want.start) < 0.15, "start \(got.concentricStartS)")
      #expect(
        abs(got.meanVelocityMps - want.meanMps) < 0.2,
        "mean \(got.meanVelocityMps), truth \(want.meanMps)")
    }
  }

  /// Two volume squats (independent looked-at 220131, BLE, a millimetre
  /// clip with its own clock, 30 Hz, from 37 s). On the second the sonar
  /// freezes at 121 cm for 0.55 s while the bar goes down, then reads the
  /// bottom (77 75.6 76 76.1 74.9 75.4) and the drive: out of the frozen
  /// track's reach, the bottom replaced the track once it agreed with
  /// itself for `TrackGate.reanchorS`, but its readings were dropped, and
  /// the rep, its bottom unseen, was lost. They are passed on.
  @Test func aBottomThatReplacedAFrozenTrackIsMeasured() {
    let readings: [(t: Double, cm: Double, ms: Int)] = [
      (37.033, 123.2, 112314), (37.062, 121.0, 112348), (37.094, 117.6, 112381),
      (37.122, 112.6, 112414), (37.167, 107.3, 112447), (37.199, 106.2, 112480),
      (37.230, 102.5, 112514), (37.258, 101.0, 112547), (37.335, 91.8, 112613),
      (37.363, 88.8, 112647), (37.392, 87.0, 112680), (37.423, 80.5, 112713),
      (37.468, 77.8, 112746), (37.498, 80.0, 112780), (37.528, 76.9, 112813),
      (37.559, 74.3, 112846), (37.589, 77.8, 112880), (37.634, 76.1, 112913),
      (37.663, 74.5, 112947), (37.693, 72.9, 112980), (37.725, 74.1, 113013),
      (37.770, 70.6, 113047), (37.799, 76.1, 113080), (37.829, 78.0, 113114),
      (37.859, 95.9, 113148), (37.905, 88.3, 113181), (37.933, 91.4, 113215),
      (37.963, 95.1, 113249), (37.993, 100.7, 113282), (38.040, 106.5, 113316),
      (38.067, 107.9, 113350), (38.097, 110.8, 113383), (38.129, 113.7, 113417),
      (38.160, 121.2, 113451), (38.204, 120.4, 113484), (38.235, 121.7, 113518),
      (38.263, 128.4, 113551), (38.294, 128.9, 113585), (38.340, 132.1, 113619),
      (38.370, 133.5, 113652), (38.398, 132.4, 113685), (38.429, 135.2, 113719),
      (38.487, 136.6, 113753), (38.502, 135.4, 113786), (38.534, 136.7, 113819),
      (38.564, 134.1, 113853), (38.608, 133.4, 113886), (38.639, 134.9, 113920),
      (38.669, 134.6, 113953), (38.699, 134.5, 113986), (38.728, 135.0, 114020),
      (38.773, 133.8, 114053), (38.803, 138.5, 114087), (38.835, 136.7, 114120),
      (38.865, 136.3, 114154), (38.908, 134.7, 114187), (38.938, 139.8, 114221),
      (38.969, 133.6, 114254), (38.999, 136.0, 114287), (39.043, 138.7, 114321),
      (39.074, 135.7, 114354), (39.105, 135.9, 114388), (39.132, 135.6, 114421),
      (39.162, 135.1, 114455), (39.209, 135.9, 114488), (39.239, 134.4, 114521),
      (39.267, 135.5, 114555), (39.300, 136.6, 114588), (39.344, 134.0, 114622),
      (39.375, 136.5, 114655), (39.404, 132.6, 114688), (39.433, 134.6, 114722),
      (39.463, 133.8, 114755), (39.509, 136.4, 114789), (39.540, 132.7, 114822),
      (39.567, 134.9, 114856), (39.600, 131.5, 114889), (39.657, 400.0, 114941),
      (39.673, 132.4, 114956), (39.703, 131.9, 114989), (39.734, 130.3, 115023),
      (39.763, 127.1, 115056), (39.810, 125.7, 115089), (39.854, 400.0, 115142),
      (39.867, 121.0, 115156), (39.899, 121.0, 115189), (39.943, 121.0, 115222),
      (39.973, 121.0, 115255), (40.004, 121.0, 115289), (40.032, 121.0, 115322),
      (40.064, 121.0, 115355), (40.110, 121.0, 115389), (40.140, 121.0, 115422),
      (40.169, 121.0, 115455), (40.200, 121.0, 115488), (40.245, 121.0, 115522),
      (40.274, 121.0, 115555), (40.304, 121.0, 115588), (40.333, 121.0, 115621),
      (40.364, 121.0, 115655), (40.408, 121.0, 115688), (40.439, 77.0, 115722),
      (40.469, 75.6, 115755), (40.500, 76.0, 115788), (40.543, 76.1, 115822),
      (40.573, 74.9, 115855), (40.603, 75.4, 115889), (40.635, 79.0, 115922),
      (40.664, 82.1, 115956), (40.710, 82.8, 115989), (40.738, 86.4, 116023),
      (40.769, 90.5, 116057), (40.798, 95.3, 116090), (40.858, 102.1, 116124),
      (40.875, 105.5, 116158), (40.935, 400.0, 116211), (40.935, 108.4, 116225),
      (40.994, 108.1, 116258), (41.009, 119.1, 116292), (41.055, 122.1, 116326),
      (41.069, 125.9, 116360), (41.127, 400.0, 116412), (41.143, 128.8, 116427),
      (41.173, 132.2, 116460), (41.203, 132.7, 116494), (41.249, 137.2, 116527),
      (41.279, 136.0, 116561), (41.309, 146.7, 116595), (41.355, 351.4, 116640),
      (41.369, 134.3, 116661), (41.415, 136.2, 116695), (41.444, 134.8, 116728),
      (41.474, 139.2, 116762), (41.504, 139.0, 116795), (41.550, 137.7, 116828),
      (41.577, 136.3, 116862), (41.607, 138.0, 116895), (41.638, 135.4, 116928),
      (41.683, 133.6, 116962), (41.712, 136.8, 116995), (41.743, 136.9, 117029),
      (41.773, 136.6, 117062), (41.804, 137.1, 117096), (41.848, 135.4, 117129),
      (41.878, 135.5, 117163), (41.908, 134.5, 117196), (41.954, 137.5, 117230),
      (41.984, 133.4, 117263), (42.014, 136.2, 117296), (42.045, 136.0, 117330),
      (42.073, 135.1, 117363), (42.120, 139.6, 117397), (42.148, 136.0, 117430),
      (42.177, 137.9, 117464), (42.209, 137.2, 117497), (42.238, 135.4, 117530),
      (42.285, 136.1, 117564), (42.329, 400.0, 117616), (42.344, 136.1, 117631),
      (42.374, 134.0, 117664), (42.417, 137.6, 117698), (42.448, 137.0, 117731),
      (42.479, 135.4, 117764), (42.509, 136.1, 117798), (42.554, 135.8, 117831),
      (42.585, 137.9, 117865), (42.614, 137.0, 117898), (42.643, 135.4, 117931),
      (42.672, 135.4, 117965), (42.719, 131.0, 117998), (42.748, 134.8, 118032),
      (42.779, 137.0, 118065), (42.809, 133.2, 118098), (42.855, 129.0, 118132),
      (42.884, 129.4, 118165), (42.914, 130.2, 118199), (42.944, 126.9, 118232),
      (42.975, 125.3, 118265), (43.018, 119.2, 118298), (43.047, 115.9, 118331),
      (43.077, 113.2, 118365), (43.109, 111.4, 118398), (43.170, 108.7, 118431),
      (43.182, 103.9, 118465), (43.214, 100.2, 118498), (43.245, 100.1, 118531),
      (43.272, 97.6, 118564), (43.318, 96.7, 118598), (43.349, 91.5, 118631),
      (43.377, 88.2, 118664), (43.439, 75.5, 118730), (43.483, 83.4, 118764),
      (43.513, 83.5, 118798), (43.543, 80.2, 118831), (43.575, 77.9, 118864),
      (43.618, 75.2, 118897), (43.648, 77.0, 118931), (43.709, 400.0, 118986),
      (43.709, 76.1, 118998), (43.754, 75.3, 119031), (43.798, 82.1, 119065),
      (43.813, 79.5, 119098), (43.843, 83.2, 119132), (43.874, 90.8, 119166),
      (43.920, 100.0, 119200), (43.947, 99.4, 119233), (43.980, 105.3, 119267),
    ]
    let lines = readings.map { (t: $0.t, line: "s:\($0.cm):\($0.ms)") }
    let reports = analyze(lines).reports
    #expect(reports.map(\.reps.count) == [2], "\(reports.map(\.reps))")
    #expect(
      reports.flatMap(\.reps).allSatisfy { abs($0.romCm - 61) < 3 },
      "\(reports.flatMap(\.reps).map(\.romCm))")
  }
}
