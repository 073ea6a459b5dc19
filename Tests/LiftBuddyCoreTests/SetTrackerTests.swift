import Testing

@testable import LiftBuddyCore

@Suite("SetTracker")
struct SetTrackerTests {
  /// A set of one learns its top from its rise going on higher, but not
  /// past what the lift travels: a bench press's first rep, 70 to 108 cm,
  /// "went on" to a stray 178 amid a dirty sonar's echoes (independent
  /// looked-at 830008), and its set's next reps were no reps of it.
  @Test func aSetOfOnesTopRisesOnlyAsFarAsTheLiftTravels() {
    let report = RepReport(
      index: 1, concentricStartS: 183, concentricEndS: 183.8, romCm: 38,
      meanVelocityMps: 0.45, peakVelocityMps: 0.7, meanPropulsiveVelocityMps: 0.45,
      timeToPeakVelocityS: 0.4, peakAccelerationMps2: 3, eccentricDurationS: 1,
      stickingPointCm: nil, maxAbsPitchDeg: 0, maxAbsRollDeg: 0)
    let rep = RepAnalysis(
      report: report, quarterVelocityMps: 0.5, propulsiveFraction: 1, stickingDipFraction: nil)
    var sets = SetTracker()
    var events: [AnalyzerEvent] = []
    sets.add(
      rep, ends: RepRules.Ends(bottomCm: 70, topCm: 108), eccentricStartS: 182,
      session: SessionInfo(source: "test", exercise: .benchPress), into: &events)
    let maxRomCm = RepRules.maxRomCm(.benchPress)
    sets.raiseOnlyRepsTop(toCm: 178, maxRomCm: maxRomCm)
    #expect(sets.band?.topCm == 108)
    sets.raiseOnlyRepsTop(toCm: 116, maxRomCm: maxRomCm)
    #expect(sets.band?.topCm == 116)
  }
}
