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
}
