import Testing

@testable import LiftBuddyCore

private func rep(_ index: Int, mv: Double, mpv: Double? = nil) -> RepReport {
  RepReport(
    index: index, concentricStartS: Double(index) * 3, concentricEndS: Double(index) * 3 + 1,
    romCm: mv * 100, meanVelocityMps: mv, peakVelocityMps: mv * 1.6,
    meanPropulsiveVelocityMps: mpv ?? mv, timeToPeakVelocityS: 0.5, peakAccelerationMps2: 3,
    eccentricDurationS: 1.2, stickingPointCm: nil, maxAbsPitchDeg: 0, maxAbsRollDeg: 0)
}

@Suite("SetSummarizer")
struct SetSummarizerTests {
  @Test func squatSummaryComputedByHand() {
    let reps = [rep(1, mv: 0.60), rep(2, mv: 0.55), rep(3, mv: 0.48)]
    let s = SetSummarizer.summary(for: reps, exercise: .squat, loadKg: 100)
    #expect(s.repCount == 3)
    #expect(s.bestMeanVelocityMps == 0.6)
    // (0.60 − 0.48) / 0.60 = 20 %.
    #expect(s.velocityLossPct == 20.0)
    // %1RM = −5.961·0.36 − 50.71·0.6 + 117 = 84.428; 100 kg / 0.84428 = 118.44 kg.
    #expect(s.estimatedOneRepMaxKg == 118.4)
  }

  @Test func benchUsesBestMeanPropulsiveVelocity() {
    let reps = [rep(1, mv: 0.45, mpv: 0.50), rep(2, mv: 0.42, mpv: 0.46)]
    let s = SetSummarizer.summary(for: reps, exercise: .benchPress, loadKg: 80)
    // %1RM = 8.4326·0.25 − 73.501·0.5 + 112.33 = 77.688; 80 / 0.77688 = 102.98 kg.
    #expect(s.estimatedOneRepMaxKg == 103.0)
    #expect(s.bestMeanVelocityMps == 0.45)
  }

  @Test func benchWithoutPropulsiveVelocityFallsBackToMeanVelocity() {
    let s = SetSummarizer.summary(
      for: [rep(1, mv: 0.45, mpv: 0)], exercise: .benchPress, loadKg: 80)
    // %1RM = 8.4326·0.2025 − 73.501·0.45 + 112.33 = 80.962; 80 / 0.80962 = 98.81 kg.
    #expect(s.estimatedOneRepMaxKg == 98.8)
  }

  @Test func deadliftUsesEpley() {
    let reps = (1...5).map { rep($0, mv: 0.5) }
    let s = SetSummarizer.summary(for: reps, exercise: .deadlift, loadKg: 140)
    // 140·(1 + 5/30) = 163.33 kg.
    #expect(s.estimatedOneRepMaxKg == 163.3)
    #expect(OneRepMaxEstimator.method(for: .deadlift) == .epley)
    #expect(OneRepMaxEstimator.method(for: nil) == .epley)
  }

  @Test func epleySingleIsTheLoadAndTooManyRepsIsNil() {
    #expect(
      SetSummarizer.summary(for: [rep(1, mv: 0.3)], exercise: nil, loadKg: 150).estimatedOneRepMaxKg
        == 150)
    let eleven = (1...11).map { rep($0, mv: 0.5) }
    #expect(
      SetSummarizer.summary(for: eleven, exercise: .overheadPress, loadKg: 40).estimatedOneRepMaxKg
        == nil)
    let ten = (1...10).map { rep($0, mv: 0.5) }
    // 40·(1 + 10/30) = 53.33 kg.
    #expect(
      SetSummarizer.summary(for: ten, exercise: .overheadPress, loadKg: 40).estimatedOneRepMaxKg
        == 53.3)
  }

  @Test func oneRepMaxIsNilWithoutLoadOrOutsideTheTrustedRange() {
    let reps = [rep(1, mv: 0.6)]
    #expect(
      SetSummarizer.summary(for: reps, exercise: .squat, loadKg: nil).estimatedOneRepMaxKg == nil)
    #expect(
      SetSummarizer.summary(for: reps, exercise: .squat, loadKg: 0).estimatedOneRepMaxKg == nil)
    // 0.2 m/s gives 106.6 % 1RM: the load would exceed the max just lifted.
    #expect(
      SetSummarizer.summary(for: [rep(1, mv: 0.2)], exercise: .squat, loadKg: 100)
        .estimatedOneRepMaxKg == nil)
    // 1.4 m/s gives 34.3 %: too light to trust; 1.3 m/s gives 41.0 %: kept.
    #expect(
      SetSummarizer.summary(for: [rep(1, mv: 1.4)], exercise: .squat, loadKg: 40)
        .estimatedOneRepMaxKg == nil)
    #expect(
      SetSummarizer.summary(for: [rep(1, mv: 1.3)], exercise: .squat, loadKg: 40)
        .estimatedOneRepMaxKg == 97.6)
  }

  @Test func emptySet() {
    let s = SetSummarizer.summary(for: [], exercise: .squat, loadKg: 100)
    #expect(
      s
        == SetSummary(
          repCount: 0, bestMeanVelocityMps: nil, velocityLossPct: nil, estimatedOneRepMaxKg: nil))
  }

  @Test func outputsAreRoundedToReportPrecision() {
    let s = SetSummarizer.summary(
      for: [rep(1, mv: 0.7), rep(2, mv: 0.6)], exercise: nil, loadKg: nil)
    #expect(s.velocityLossPct == 14.3)  // 14.2857…
    #expect(
      SetSummarizer.summary(for: [rep(1, mv: 0.61234)], exercise: nil, loadKg: nil)
        .bestMeanVelocityMps == 0.612)
  }

  @Test func velocityLossEdgeCases() {
    #expect(SetSummarizer.velocityLossPct(meanVelocities: []) == nil)
    #expect(SetSummarizer.velocityLossPct(meanVelocities: [0.5]) == nil)
    #expect(SetSummarizer.velocityLossPct(meanVelocities: [0.5, 0.5, 0.5]) == 0)
    #expect(SetSummarizer.velocityLossPct(meanVelocities: [0.4, 0.45, 0.5]) == 0)
    #expect(SetSummarizer.velocityLossPct(meanVelocities: [0, 0]) == nil)
    // Fastest so far is rep 2, not rep 1: (0.6 − 0.45) / 0.6 = 25 %.
    #expect(SetSummarizer.velocityLossPct(meanVelocities: [0.5, 0.6, 0.45]) == 25.0)
  }
}
