import Testing

@testable import LiftBuddyCore

/// A start out of rest read in a silence is placed by the readings after
/// it, not at the silence's start (`RepMeasurer.fitTurnaround`).
@Suite struct SilentStartTests {
  /// Three deadlift pulls of 50 cm over 1.2 s, read at 30 Hz by a
  /// millimetre clip over 0.4 cm of noise. Before the second pull the
  /// sonar hangs on the floor's reading for 1.6 s, into the pull's first
  /// 0.15 s (blind 7000074's shape: its rest read as one value for 1.7 s).
  /// The second pull's start was placed at the silence's start, 1.32 s
  /// early, and its mean velocity read 0.21 m/s against 0.42 (so on
  /// each of the noise's seeds 1–12).
  @Test func aPullOutOfASilenceIsTimedByTheReadingsAfterIt() throws {
    let lift = SyntheticLift.deadlift(reps: 3, romCm: 50, up: 1.2, hold: 1, down: 1.5, rest: 3)
    let pull = lift.truth[1]
    let frozen = (pull.start - 1.6)...(pull.start + 0.15)
    let lines = lift.frozenLines(rateHz: 30, sigmaCm: 0.4, seed: 1, frozen: frozen)
    let events = analyze(lines, session: SessionInfo(source: "test", exercise: .deadlift))
    let reps = events.reports.flatMap(\.reps)
    #expect(reps.count == 3)
    for (rep, truth) in zip(reps, lift.truth) {
      #expect(abs(rep.concentricStartS - truth.start) < 0.1, "pull \(rep.index)")
      #expect(abs(rep.meanVelocityMps - truth.meanMps) < 0.05, "pull \(rep.index)")
    }
  }
}
