import Testing

@testable import LiftBuddyCore

/// Something between the clip and the floor: a heavy plate's rim in the
/// beam, a side spotter's hands cupped under the sleeve, a knee.
/// The HC-SR04 answers with its nearest echo, so the sonar reads it, at
/// one distance, while the bar moves on unseen behind it
/// (`TrackGate.maxOcclusionS`).
@Suite struct OccludedSonarTests {
  /// Three presses from the rack (the shoulders at 141 cm, 55 cm up in
  /// 1.5 s, held 0.8 s at lockout, lowered in 1.5 s, 1.5 s on the
  /// shoulders) from a millimetre clip at 25 Hz, σ 0.7 cm, with a heavy
  /// plate's rim in the beam from 0.3 s after each lockout to two thirds
  /// of the way down (23 ± 0.6 cm, 1.4 s), as in blind looked-at
  /// 7000053's second set. Taken for the bar after `TrackGate.reanchorS`,
  /// the rim made the bar fall to 23 cm and come back up in one reading:
  /// no press was counted.
  @Test func pressesUnderAPlatesRimAreCounted() {
    let press: [SyntheticLift.Phase] = [
      .init(duration: 1.5, deltaCm: 55), .init(duration: 0.8, deltaCm: 0),
      .init(duration: 1.5, deltaCm: -55), .init(duration: 1.5, deltaCm: 0),
    ]
    let lift = SyntheticLift(
      startCm: 141, leadIn: 3, phases: Array(repeating: press, count: 3).flatMap { $0 })
    let rims = (0..<3).map { k -> ClosedRange<Double> in
      let lockout = lift.leadIn + 1.5 + Double(k) * 5.3
      return (lockout + 0.3)...(lockout + 1.7)
    }
    var noise = SeededNoise(seed: 11)
    let lines = lift.lines(rateHz: 25).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:") else { return line }
      let cm =
        rims.contains(where: { $0.contains(line.t) })
        ? 23 + 0.6 * noise.gaussian() : lift.height(at: line.t) + 0.7 * noise.gaussian()
      return (line.t, "s:\((cm * 10).rounded() / 10)")
    }
    let reps = analyze(lines, session: SessionInfo(source: "test", exercise: .overheadPress))
      .reports.flatMap(\.reps)
    #expect(reps.count == 3, "\(reps.map(\.romCm))")
    for (got, want) in zip(reps, lift.truth) {
      #expect(abs(got.romCm - want.romCm) < 2, "\(got.romCm) cm against \(want.romCm)")
      #expect(abs(got.meanVelocityMps - want.meanMps) < 0.03)
    }
  }
}
