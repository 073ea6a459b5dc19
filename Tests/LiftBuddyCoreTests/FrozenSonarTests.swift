import Testing

@testable import LiftBuddyCore

/// A frozen sonar's repeats are silence; a resting bar's readings are not.
@Suite struct FrozenSonarTests {
  private func repeats(_ values: [Double], noiseCm: Double) -> [Bool] {
    var frozen = FrozenSonar()
    return values.enumerated().map { i, cm in
      frozen.isRepeat(TimedHeight(t: Double(i) / 20, cm: cm), noiseCm: noiseCm)
    }
  }

  @Test func theSixthReadingOfOneMillimetreOnANoisySonarIsARepeat() {
    // 82.5 cm eight times on a sonar with 0.5 cm of noise (blind simulator
    // 7000104): the first five stand, the rest are silence; the next value
    // starts afresh.
    let values: [Double] = Array(repeating: 82.5, count: 8) + [90.1, 90.1]
    #expect(
      repeats(values, noiseCm: 0.5)
        == [false, false, false, false, false, true, true, true, false, false])
  }

  @Test func aWholeCentimetreOrAQuietSonarRepeatsAtRest() {
    // A whole-cm clip reads a resting bar at one value for as long as it
    // rests; a sonar quieter than a millimetre bin's width does too.
    let whole: [Double] = Array(repeating: 82, count: 10)
    #expect(!repeats(whole, noiseCm: 0.5).contains(true))
    let quiet: [Double] = Array(repeating: 82.5, count: 10)
    #expect(!repeats(quiet, noiseCm: StuckReadings.frozenNoiseCm / 2).contains(true))
  }

  @Test func aSquatWhoseSonarFrozeMidDriveCounts() {
    // Three squats (55 cm) read to a millimetre through 0.3 cm of noise at
    // 20 Hz; in the second the sonar froze a quarter of the way up for
    // 1.2 s, through the lockout (blind simulator 7000104 froze through
    // its drive the same way). Taken for the bar, the repeats were a
    // park and the rep was lost; as silence, the rep is measured across
    // it.
    let lift = SyntheticLift.squat(reps: 3, up: 1.2)
    let second = lift.truth[1]
    var rng = SeededNoise(seed: 7_000_104)
    var frozenCm: Double? = nil
    let lines = lift.lines(rateHz: 20).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:") else { return line }
      var cm = ((lift.height(at: line.t) + 0.3 * rng.gaussian()) * 10).rounded() / 10
      if line.t >= second.start + 0.3, line.t < second.start + 1.5 {
        frozenCm = frozenCm ?? cm
        cm = frozenCm!
      }
      return (line.t, "s:\(cm)")
    }
    let reps = analyze(lines).reports.flatMap(\.reps)
    #expect(reps.count == 3, "\(reps.map(\.romCm))")
    // Its range, measured across the silence, is the squat's (54.0 of 55).
    if reps.count == 3 { #expect(abs(reps[1].romCm - second.romCm) < 2) }
  }
}
