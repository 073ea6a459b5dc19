import Testing

@testable import LiftBuddyCore

/// A bar picked up off the floor, carried to the platform and put down
/// makes the round trip a pull makes: up from the floor, held, back down.
/// What tells them apart is the hold: a lockout is stood still and shown
/// for at most `RepRules.maxLockoutHoldS`, a carry is walked for longer,
/// the bar dipping at each step (`Analyzer.heldAtTop`).
@Suite struct CarriedBarTests {
  /// Picked up from 25 cm to 82 in 1.3 s, carried for 4 s in five steps
  /// that each dip the bar 4 cm (with and without a pause at the bottom
  /// of each dip), put down in 1.2 s; whole centimetres at 20 Hz, σ 0.3
  /// cm. Before, the hold ended at the first dip (the turn finder saw the
  /// bar leave its top there) and the carry was a deadlift single, as the
  /// pick-ups before blind looked-at 7000123 and 7000135's first sets
  /// (carried 3.7 s) were. A carry shorter than the limit is still a
  /// pull held at its lockout.
  @Test(arguments: [0.0, 0.2])
  func aBarCarriedToThePlatformIsNoPull(dipPauseS: Double) {
    var carry: [SyntheticLift.Phase] = []
    for _ in 0..<5 {
      carry.append(.init(duration: 0.4 - dipPauseS / 2, deltaCm: -4))
      if dipPauseS > 0 { carry.append(.init(duration: dipPauseS, deltaCm: 0)) }
      carry.append(.init(duration: 0.4 - dipPauseS / 2, deltaCm: 4))
    }
    let lift = SyntheticLift(
      startCm: 25, leadIn: 3,
      phases: [.init(duration: 1.3, deltaCm: 57)] + carry + [
        .init(duration: 1.2, deltaCm: -57), .init(duration: 20, deltaCm: 0),
      ])
    let reports = analyze(
      lift.noisyLines(rateHz: 20, sigmaCm: 0.3, seed: 3),
      session: SessionInfo(source: "test", exercise: .deadlift)
    ).reports
    #expect(reports.isEmpty, "\(reports.flatMap(\.reps).map(\.concentricStartS))")
  }

  /// The counterpart: a deadlift single held still at lockout for 1, 2 or
  /// 2.8 s (our simulator's lockouts last up to 3 s) is a rep. Timed to
  /// when the smoothed track left the top (0.25 s behind the bar), the
  /// 2.8-s hold reads 3.06 s: the limit leaves room for that lag.
  @Test(arguments: [1.0, 2.0, 2.8])
  func aSingleStoodAtLockoutCounts(holdS: Double) {
    let lift = SyntheticLift(
      startCm: 25, leadIn: 3,
      phases: [
        .init(duration: 1.3, deltaCm: 57), .init(duration: holdS, deltaCm: 0),
        .init(duration: 1.2, deltaCm: -57), .init(duration: 20, deltaCm: 0),
      ])
    let reps = analyze(
      lift.noisyLines(rateHz: 20, sigmaCm: 0.3, seed: 3),
      session: SessionInfo(source: "test", exercise: .deadlift)
    ).reports.flatMap(\.reps)
    #expect(reps.count == 1)
    if let rep = reps.first {
      #expect(abs(rep.romCm - 57) < 2, "\(rep.romCm)")
    }
  }
}
