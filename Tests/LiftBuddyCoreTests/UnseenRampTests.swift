import Testing

@testable import LiftBuddyCore

/// A rep whose drive the sonar never saw is timed by its set's seen reps
/// (`UnseenRamp`), not by the silence that hid it.
@Suite struct UnseenRampTests {
  /// Five squats of 55 cm, each driven up in 0.6 s (0.917 m/s), read at
  /// 20 Hz by a millimetre clip over 0.3 cm of noise. Over the fourth
  /// rep's drive the sonar hangs, repeating its bottom reading for 1.1 s
  /// (an HC-SR04 with no echo timeout): the rep is counted across the
  /// silence, and was reported at the silence's pace, 0.44 m/s, a 52 %
  /// "velocity loss" that no rep of the set had. Timed by the set, every
  /// rep is within 0.08 m/s of its truth.
  @Test func aDriveHiddenByAFrozenSonarIsTimedByTheSetsSeenReps() throws {
    let lift = SyntheticLift.squat(reps: 5, up: 0.6)
    let hidden = lift.truth[3]
    let frozen = (hidden.start - 0.1)...(hidden.end + 0.4)
    let lines = lift.frozenLines(rateHz: 20, sigmaCm: 0.3, seed: 60, frozen: frozen)
    let events = analyze(lines)
    let reps = try #require(events.reports.first).reps
    #expect(events.reports.count == 1)
    #expect(reps.count == 5)
    for (rep, truth) in zip(reps, lift.truth) {
      #expect(abs(rep.meanVelocityMps - truth.meanMps) < 0.08, "rep \(rep.index)")
      #expect(rep.peakVelocityMps >= rep.meanVelocityMps)
    }
    // The rep told live carries the same number as the set's report.
    #expect(events.reps.map(\.rep.meanVelocityMps) == reps.map(\.meanVelocityMps))
  }

  /// The longest silence counts the phase's own ends as readings' edges,
  /// and hid the top where the bar was read again near it.
  @Test func theLongestSilenceRunsToThePhasesEnds() {
    let report = RepReport(
      index: 1, concentricStartS: 10, concentricEndS: 11, romCm: 50,
      meanVelocityMps: 0.5, peakVelocityMps: 0.8, meanPropulsiveVelocityMps: 0.5,
      timeToPeakVelocityS: 0.4, peakAccelerationMps2: 3, eccentricDurationS: 1,
      stickingPointCm: nil, maxAbsPitchDeg: 0, maxAbsRollDeg: 0)
    let read = { (ts: [(Double, Double)]) in ts.map { TimedHeight(t: $0.0, cm: $0.1) } }
    // Read again at 60 % of the range: the lockout's arrival was seen.
    let middle = UnseenRamp.longestSilence(
      in: read([(9.9, 80), (10.1, 82), (10.7, 110), (10.9, 128), (11.1, 130)]), of: report)
    #expect(abs(middle.lengthS - 0.6) < 1e-9)
    #expect(!middle.hidTop)
    // Read again at 96 %: it was not.
    let top = UnseenRamp.longestSilence(
      in: read([(9.9, 80), (10.2, 82), (10.9, 128), (11.1, 130)]), of: report)
    #expect(abs(top.lengthS - 0.7) < 1e-9)
    #expect(top.hidTop)
    // Nothing read after the start: the whole phase, its top unseen.
    let none = UnseenRamp.longestSilence(in: read([(9.9, 80)]), of: report)
    #expect(none == UnseenRamp.Unseen(lengthS: 1, hidTop: true))
  }
}
