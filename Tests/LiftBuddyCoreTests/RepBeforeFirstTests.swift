import Testing

@testable import LiftBuddyCore

/// A set's first rep whose stand the sonar never read is counted once the
/// set's next rep came down from its top (`RepRules.repBeforeFirst`).
@Suite struct RepBeforeFirstTests {
  /// Bench presses of 45 cm from a stand at 110 cm: each lowered over
  /// 1.0 s, paused 0.3 s on the chest, pressed over 0.8 s, then held at the
  /// top for `top` s (the first after a 3-s stand).
  private func bench(reps: Int, top: [Double]) -> SyntheticLift {
    var phases: [SyntheticLift.Phase] = []
    for i in 0..<reps {
      phases += [
        .init(duration: 1.0, deltaCm: -45), .init(duration: 0.3, deltaCm: 0),
        .init(duration: 0.8, deltaCm: 45), .init(duration: top[i], deltaCm: 0),
      ]
    }
    return SyntheticLift(startCm: 110, leadIn: 3, phases: phases)
  }

  /// The lines at 20 Hz, whole cm, with the sonar answered by a target
  /// 22 cm under it (a spotter's hands under the sleeve, a plate's rim)
  /// from the start until `hiddenUntil`: the stand and the start of the
  /// first descent unread.
  private func lines(_ lift: SyntheticLift, hiddenUntil: Double) -> [(t: Double, line: String)] {
    lift.lines(rateHz: 20).map { line in
      line.line.hasPrefix("s:") && line.t < hiddenUntil ? (line.t, "s:22") : line
    }
  }

  private let session = SessionInfo(source: "test", exercise: .benchPress)

  @Test func aFirstRepWhoseStandWasHiddenCountsWithTheSet() {
    // Blind simulator 7000025 and 7000216 (a whole-cm sonar frozen over
    // the stand), or a target answering for the bar through it, as here:
    // the first rep came down from no stand the sonar read, so it started
    // no set, and the set began with the second. Its range and timing are
    // its own.
    let lift = bench(reps: 3, top: [1.5, 1.5, 1.5])
    let events = analyze(lines(lift, hiddenUntil: 3.3), session: session)
    let reps = events.reports.flatMap(\.reps)
    #expect(reps.count == 3, "\(reps.map(\.concentricStartS))")
    guard reps.count == 3 else { return }
    let first = lift.truth[0]
    #expect(abs(reps[0].concentricStartS - first.start) < 0.15)
    #expect(abs(reps[0].romCm - first.romCm) < 2)
    // Told when the set's first rep is, in order: rep 1, then rep 2.
    #expect(events.reps.map(\.rep.index) == [1, 2, 3])
  }

  @Test func touchAndGoRepsAfterAHiddenStandCountInARow() {
    // The first two reps turn at the top at once (0.05 s held: the bar
    // within 3 cm of its top for 0.35 s, under a stand,
    // `RepRules.minStandBeforeSetS`), so neither may start the set
    // either; the third stands 1 s, and the fourth, down from that stand,
    // starts it (blind 7000180, a touch-and-go bench set: two reps back).
    let lift = bench(reps: 4, top: [0.05, 0.05, 1.0, 1.5])
    let events = analyze(lines(lift, hiddenUntil: 3.3), session: session)
    let reps = events.reports.flatMap(\.reps)
    #expect(reps.count == 4, "\(reps.map(\.concentricStartS))")
    guard reps.count == 4 else { return }
    for (found, truth) in zip(reps, lift.truth) {
      #expect(abs(found.concentricStartS - truth.start) < 0.15)
    }
  }

  @Test func aRiseBeforeASetUpLongerThanARepsStandIsNoRep() {
    // The same rise, but the bar stood 4 s at the top before the set's
    // first descent: longer than a lifter stands between two reps
    // (`RepRules.maxStandBetweenRepsS`), a set-up, over which a dirty
    // sonar makes rises of its own (a walk-out read through a switching
    // sonar, independent looked-at 1630046). The set starts with the
    // next rep.
    let lift = bench(reps: 3, top: [4.0, 1.5, 1.5])
    let reps = analyze(lines(lift, hiddenUntil: 3.3), session: session).reports.flatMap(\.reps)
    #expect(reps.count == 2, "\(reps.map(\.concentricStartS))")
  }

  @Test func theRuleAsksTheSetsEndsTheBarAtTheTopAndALaterDrive() {
    // A rise of 65 → 110 cm locked out at 10 s; the set's first rep came
    // down from 110 at 11 s and drove up from 11.5 s.
    let ends = RepRules.Ends(bottomCm: 65, topCm: 110)
    let atTop = (0..<20).map { TimedHeight(t: 10 + Double($0) * 0.05, cm: 110) }
    func rule(
      _ rise: RepRules.Ends = ends, descentStartS: Double = 11, firstStartS: Double = 11.5,
      samples: [TimedHeight]? = nil
    ) -> Bool {
      RepRules.repBeforeFirst(
        rise, lockedOutS: 10, first: ends, descentStartS: descentStartS,
        firstStartS: firstStartS, samples: samples ?? atTop)
    }
    #expect(rule())
    // From a bottom that is not the set's: an unrack, a bar lifted from lower.
    #expect(!rule(RepRules.Ends(bottomCm: 88, topCm: 110)))
    // The set's first rep itself, its rise split again by the turn finder.
    #expect(!rule(firstStartS: 9.6))
    // A set-up's stand, longer than a lifter's between two reps.
    #expect(!rule(descentStartS: 10 + RepRules.maxStandBetweenRepsS + 0.1))
    // A touch-and-go top: the next descent fitted as the lockout was.
    #expect(rule(descentStartS: 10 - RepMeasurer.lockoutReadS / 2))
    // A dirty sonar's noise at the top, 12 cm under it, is the bar still up.
    var noisy = atTop
    for i in stride(from: 0, to: 20, by: 2) { noisy[i].cm = 98 }
    #expect(rule(samples: noisy))
    // Four readings in twenty under the middle of the range are strays;
    // five are the bar gone down in between.
    var strays = atTop
    for i in 8..<12 { strays[i].cm = 80 }
    #expect(rule(samples: strays))
    var away = atTop
    for i in 8..<13 { away[i].cm = 80 }
    #expect(!rule(samples: away))
  }

  @Test func withItsStandReadTheSetIsUnchanged() {
    let lift = bench(reps: 3, top: [1.5, 1.5, 1.5])
    let reps = analyze(lift.lines(rateHz: 20), session: session).reports.flatMap(\.reps)
    #expect(reps.count == 3)
  }
}
