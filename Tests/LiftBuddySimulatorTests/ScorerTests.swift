import LiftBuddyCore
import Testing

@testable import LiftBuddySimulator

@Suite("Scorer")
struct ScorerTests {
  static func truthRep(_ index: Int, _ start: Double) -> TruthRep {
    TruthRep(
      index: index, concentricStartS: start, concentricEndS: start + 1, romCm: 50,
      meanVelocityMps: 0.5,
      peakVelocityMps: 0.9, eccentricStartS: start - 1.5, stickingPointCm: nil, maxAbsPitchDeg: 1,
      maxAbsRollDeg: 1)
  }

  static func reportRep(_ index: Int, _ start: Double, mv: Double = 0.5, rom: Double = 50)
    -> RepReport
  {
    RepReport(
      index: index, concentricStartS: start, concentricEndS: start + 1, romCm: rom,
      meanVelocityMps: mv,
      peakVelocityMps: 0.95, meanPropulsiveVelocityMps: mv, timeToPeakVelocityS: 0.4,
      peakAccelerationMps2: 3,
      eccentricDurationS: 1.5, stickingPointCm: nil, maxAbsPitchDeg: 1, maxAbsRollDeg: 1)
  }

  static func report(_ reps: [RepReport], _ start: Double, _ end: Double) -> LiftReport {
    LiftReport(
      id: "x", source: "test", exercise: "squat", loadKg: 100, startedAt: "", endedAt: "",
      startS: start,
      endS: end, reps: reps,
      summary: SetSummary(
        repCount: reps.count, bestMeanVelocityMps: nil,
        velocityLossPct: nil, estimatedOneRepMaxKg: nil), recommendations: [],
      quality: QualityCounts())
  }

  static let truth = Truth(
    stream: "t.lbs", seed: nil, transport: nil, noise: nil,
    sets: [
      TruthSet(
        exercise: "squat", loadKg: 100, startS: 8.5, endS: 20,
        reps: (0..<3).map { truthRep($0 + 1, 10 + 4 * Double($0)) }),
      TruthSet(
        exercise: "squat", loadKg: 100, startS: 98.5, endS: 105,
        reps: (0..<2).map { truthRep($0 + 1, 100 + 4 * Double($0)) }),
    ], nonReps: [], faults: nil)

  @Test("Reports matching the truth score perfectly")
  func perfect() {
    let reports = [
      Self.report((0..<3).map { Self.reportRep($0 + 1, 10 + 4 * Double($0)) }, 9, 21),
      Self.report((0..<2).map { Self.reportRep($0 + 1, 100 + 4 * Double($0)) }, 99, 106),
    ]
    let s = Scorer.score(reports: reports, truth: Self.truth)
    #expect(s.sets == 2 && s.exactSets == 2 && s.extraSets == 0 && s.missedSets == 0)
    #expect(s.matchedReps == 5 && s.extraReps == 0 && s.missedReps == 0)
    #expect(s.meanVelocity.mean == 0)
    #expect(abs(s.peakVelocity.mean! - 0.05) < 1e-12)
    #expect(s.exactSetRate == 1)
    #expect(AccuracyTargets().misses(s).isEmpty)
  }

  @Test("Extra, missed and mis-measured reps and sets are counted")
  func failures() {
    let reports = [
      // An extra rep (the unrack) and a slow reading on rep 2.
      Self.report(
        [
          Self.reportRep(1, 6), Self.reportRep(2, 10.1), Self.reportRep(3, 14, mv: 0.6, rom: 52),
          Self.reportRep(4, 18),
        ],
        5, 21),
      // A set that never happened.
      Self.report([Self.reportRep(1, 60)], 59, 62),
    ]
    let s = Scorer.score(reports: reports, truth: Self.truth)
    #expect(s.sets == 2 && s.reportedSets == 2)
    #expect(s.exactSets == 0 && s.extraSets == 1 && s.missedSets == 1)
    #expect(s.setCountMismatches == 0)
    #expect(s.matchedReps == 3 && s.extraReps == 2 && s.missedReps == 2)
    #expect(abs(s.meanVelocity.mean! - 0.1 / 3) < 1e-12)
    #expect(abs(s.rom.mean! - 2.0 / 3) < 1e-12)
    #expect(abs(s.concentricStart.mean! - 0.1 / 3) < 1e-12)
    #expect(s.exactSetRate == 0)
    #expect(AccuracyTargets().misses(s).count == 2)
  }

  @Test("No reports: every set missed, and the targets fail rather than pass")
  func nothingFound() {
    let s = Scorer.score(reports: [], truth: Self.truth)
    #expect(s.missedSets == 2 && s.missedReps == 5 && s.setCountMismatches == 1)
    #expect(s.meanVelocity.mean == nil)
    #expect(AccuracyTargets().misses(s).count == 4)
  }

  @Test("Scores add up exactly and render as a table")
  func aggregate() {
    let a = Scorer.score(reports: [], truth: Self.truth)
    let b = Scorer.score(
      reports: [
        Self.report((0..<3).map { Self.reportRep($0 + 1, 10 + 4 * Double($0), mv: 0.52) }, 9, 21)
      ],
      truth: Self.truth)
    let sum = a + b
    #expect(sum.streams == 2 && sum.sets == 4 && sum.exactSets == 1 && sum.matchedReps == 3)
    #expect(abs(sum.meanVelocity.mean! - 0.02) < 1e-12)
    let table = ScoreTable.render([("a", a), ("TOTAL", sum)])
    let lines = table.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[2].hasPrefix("TOTAL"))
    #expect(lines[2].contains("0.020"))
    #expect(Set(lines.map(\.count)).count == 1, "columns align")
  }
}
