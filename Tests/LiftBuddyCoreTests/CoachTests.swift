import Testing

@testable import LiftBuddyCore

/// A clean rep by default: 50 cm in 1 s (0.5 m/s), symmetric velocity curve
/// (peak at half time, drive ratio 0.5625/0.5 = 1.125), no braking
/// phase, no dip, level bar.
private func rep(
  _ index: Int, rom: Double = 50, mv: Double = 0.5, timeToPeak: Double = 0.5,
  quarter: Double = 0.5625, propulsive: Double = 1, dip: Double? = nil,
  stickingCm: Double? = nil, pitch: Double? = 0, roll: Double? = 0
) -> RepAnalysis {
  let start = Double(index) * 3
  return RepAnalysis(
    report: RepReport(
      index: index, concentricStartS: start, concentricEndS: start + 1, romCm: rom,
      meanVelocityMps: mv, peakVelocityMps: mv * 1.5, meanPropulsiveVelocityMps: mv,
      timeToPeakVelocityS: timeToPeak, peakAccelerationMps2: 3, eccentricDurationS: 1.5,
      stickingPointCm: stickingCm, maxAbsPitchDeg: pitch, maxAbsRollDeg: roll),
    quarterVelocityMps: quarter, propulsiveFraction: propulsive,
    stickingDipFraction: dip)
}

private func cleanSet(_ count: Int = 5) -> [RepAnalysis] { (1...count).map { rep($0) } }

private func advise(_ reps: [RepAnalysis]) -> [Recommendation] {
  Coach.recommendations(for: reps, exercise: .squat, loadKg: 100)
}

private func replacing(_ reps: [RepAnalysis], _ changed: RepAnalysis...) -> [RepAnalysis] {
  var out = reps
  for c in changed { out[c.report.index - 1] = c }
  return out
}

@Suite("Coach")
struct CoachTests {
  @Test func cleanSetGetsNoAdvice() {
    #expect(advise(cleanSet()).isEmpty)
    #expect(advise([]).isEmpty)
  }

  @Test func codesAreStable() {
    #expect(
      RecommendationCode.allCases.map(\.rawValue) == [
        "range_of_motion", "weak_point", "explosiveness", "bar_tilt", "velocity_loss",
      ])
  }

  // MARK: range_of_motion

  @Test func shortRepIsNamedWithItsNumbers() {
    let recs = advise(replacing(cleanSet(), rep(3, rom: 44)))
    #expect(
      recs == [
        Recommendation(
          code: "range_of_motion", severity: .info, rep: 3,
          message:
            "Rep 3 was short: 44.0 cm against 50.0 cm on rep 1, your longest (88%). Aim for the same full range on every rep."
        )
      ])
  }

  @Test func repJustAboveNinetyPercentIsNotShort() {
    // 45.5 cm is 91 % of 50; the spread that leaves (CV 3.7 %) is under 4 %.
    #expect(advise(replacing(cleanSet(), rep(3, rom: 45.5))).isEmpty)
  }

  @Test func partialRepIsAWarning() {
    let recs = advise(replacing(cleanSet(), rep(2, rom: 39)))
    #expect(recs.map(\.severity) == [.warning])
    #expect(recs.map(\.rep) == [2])
  }

  @Test func manyShortRepsGiveOneSetLevelMessage() {
    let reps = replacing(cleanSet(), rep(2, rom: 44), rep(3, rom: 43), rep(4, rom: 44))
    #expect(
      advise(reps) == [
        Recommendation(
          code: "range_of_motion", severity: .info, rep: nil,
          message:
            "Your range of motion varied from 43.0 to 50.0 cm across the set. Reps 2, 3 and 4 were short: 44.0, 43.0 and 44.0 cm against 50.0 cm on rep 1, your longest. Aim for the same full range on every rep."
        )
      ])
  }

  @Test func inconsistentDepthIsASetLevelMessage() {
    // 50, 46, 50, 46, 50: mean 48.4, SD 1.96, CV 4.05 % > 4 %; none short.
    let reps = replacing(cleanSet(), rep(2, rom: 46), rep(4, rom: 46))
    #expect(
      advise(reps) == [
        Recommendation(
          code: "range_of_motion", severity: .info, rep: nil,
          message:
            "Your range of motion varied from 46.0 to 50.0 cm across the set. Aim for the same full range on every rep."
        )
      ])
  }

  @Test func spreadAndOneShortRepAreOneMessageNotTwo() {
    // Rep 5 is short (88 %); the others (50, 46, 50, 46) still spread by
    // CV 4.2 %, so one set-level message names rep 5 instead of a second one.
    let reps = replacing(cleanSet(), rep(2, rom: 46), rep(4, rom: 46), rep(5, rom: 44))
    #expect(
      advise(reps) == [
        Recommendation(
          code: "range_of_motion", severity: .info, rep: nil,
          message:
            "Your range of motion varied from 44.0 to 50.0 cm across the set. Rep 5 was short: 44.0 cm against 50.0 cm on rep 1, your longest. Aim for the same full range on every rep."
        )
      ])
  }

  @Test func depthSpreadJustUnderTheCutOffIsQuiet() {
    // 50, 46.5, 50, 46.5, 50: CV 3.5 %.
    #expect(advise(replacing(cleanSet(), rep(2, rom: 46.5), rep(4, rom: 46.5))).isEmpty)
  }

  // MARK: weak_point

  @Test func stickingPointGivesItsHeight() {
    let recs = advise(replacing(cleanSet(), rep(2, dip: 0.15, stickingCm: 22)))
    #expect(
      recs == [
        Recommendation(
          code: "weak_point", severity: .info, rep: 2,
          message:
            "Rep 2 slowed down by 15% after its first burst of speed, 22.0 cm above the bottom: that is your sticking point. Paused reps or partials from around that height build strength there."
        )
      ])
  }

  @Test func smallDipIsNotAStickingPoint() {
    #expect(advise(replacing(cleanSet(), rep(2, dip: 0.099, stickingCm: 22))).isEmpty)
  }

  @Test func stickingOnMostRepsIsOneSetLevelMessage() {
    let reps = replacing(
      cleanSet(), rep(3, dip: 0.12, stickingCm: 20), rep(4, dip: 0.2, stickingCm: 22),
      rep(5, dip: 0.25, stickingCm: 21))
    let recs = advise(reps)
    #expect(recs.count == 1)
    #expect(recs.first?.rep == nil)
    #expect(
      recs.first?.message
        == "Reps 3, 4 and 5 slowed down by up to 25% after their first burst of speed, between 20.0 and 22.0 cm above the bottom: that is your sticking point. Paused reps or partials from around that height build strength there."
    )
  }

  // MARK: explosiveness

  @Test func slowStartOffTheBottom() {
    // Velocity a quarter of the way through: 0.35 m/s, ratio 0.7 < 0.75.
    let recs = advise(replacing(cleanSet(), rep(2, quarter: 0.35)))
    #expect(
      recs == [
        Recommendation(
          code: "explosiveness", severity: .info, rep: 2,
          message:
            "Rep 2 came off the bottom slowly (0.35 m/s a quarter of the way through against 0.50 m/s on average). Drive hard out of the bottom."
        )
      ])
  }

  @Test func driveJustAboveTheCutOffIsQuiet() {
    // 1.52·0.25/0.5 = 0.76.
    #expect(advise(replacing(cleanSet(), rep(2, quarter: 0.38))).isEmpty)
  }

  @Test func earlyDecelerationIntoLockout() {
    let recs = advise(replacing(cleanSet(), rep(4, propulsive: 0.6)))
    #expect(
      recs.map(\.message) == [
        "Rep 4 eased off after 60% of the lift, letting the bar coast to lockout. Keep pushing through lockout."
      ])
    #expect(advise(replacing(cleanSet(), rep(4, propulsive: 0.66))).isEmpty)
  }

  @Test func latePeakVelocityUnlessAStickingPointExplainsIt() {
    let late = advise(replacing(cleanSet(), rep(1, timeToPeak: 0.85)))
    #expect(
      late.map(\.message) == [
        "Rep 1 reached top speed late, 85% of the way through. Drive hard out of the bottom."
      ])
    #expect(advise(replacing(cleanSet(), rep(1, timeToPeak: 0.79))).isEmpty)
    let stuck = advise(replacing(cleanSet(), rep(1, timeToPeak: 0.85, dip: 0.2, stickingCm: 18)))
    #expect(stuck.map(\.code) == ["weak_point"])
  }

  @Test func severalDriveFaultsOnOneRepAreOneMessage() {
    let recs = advise(replacing(cleanSet(), rep(2, quarter: 0.35, propulsive: 0.5)))
    #expect(
      recs.map(\.message) == [
        "Rep 2 came off the bottom slowly (0.35 m/s a quarter of the way through against 0.50 m/s on average) and eased off after 50% of the lift, letting the bar coast to lockout. Drive hard out of the bottom and keep pushing through lockout."
      ])
  }

  @Test func driveFaultsAcrossTheSetAreOneMessage() {
    let reps = replacing(
      cleanSet(), rep(1, quarter: 0.35), rep(2, quarter: 0.35), rep(3, propulsive: 0.6))
    #expect(
      advise(reps) == [
        Recommendation(
          code: "explosiveness", severity: .info, rep: nil,
          message:
            "The bar came off the bottom slowly on reps 1 and 2 and eased off before lockout on rep 3. Drive hard out of the bottom and keep pushing through lockout."
        )
      ])
  }

  @Test func deadliftAdviceSaysPull() {
    let reps = replacing(cleanSet(), rep(2, propulsive: 0.6, roll: 7))
    let recs = Coach.recommendations(for: reps, exercise: .deadlift, loadKg: 140)
    #expect(
      recs.map(\.message) == [
        "Rep 2 eased off after 60% of the lift, letting the bar coast to lockout. Keep pulling through lockout.",
        "The bar tilted 7.0° on rep 2. Keep it level: grip evenly and pull both sides together.",
      ])
  }

  // MARK: bar_tilt

  @Test func tiltedBarOnOneRep() {
    let recs = advise(replacing(cleanSet(), rep(2, roll: 7.5)))
    #expect(
      recs == [
        Recommendation(
          code: "bar_tilt", severity: .info, rep: 2,
          message:
            "The bar tilted 7.5° on rep 2. Keep it level: grip evenly and push both sides together."
        )
      ])
  }

  @Test func largeTiltIsAWarningAndSmallTiltIsQuiet() {
    #expect(advise(replacing(cleanSet(), rep(2, pitch: 12))).map(\.severity) == [.warning])
    #expect(advise(replacing(cleanSet(), rep(2, pitch: 4.9, roll: 4.9))).isEmpty)
    #expect(advise(replacing(cleanSet(), rep(2, pitch: nil, roll: nil))).isEmpty)
  }

  @Test func tiltOnFourOfFiveRepsIsOneSetLevelMessage() {
    let reps = replacing(
      cleanSet(), rep(1, roll: 6), rep(2, pitch: 7), rep(3, roll: 12), rep(4, roll: 6))
    #expect(
      advise(reps) == [
        Recommendation(
          code: "bar_tilt", severity: .warning, rep: nil,
          message:
            "The bar tilted more than 5° on reps 1, 2, 3 and 4, up to 12.0° on rep 3. Keep it level: grip evenly and push both sides together."
        )
      ])
  }

  @Test func tiltOnTwoOfFiveRepsStaysPerRep() {
    let recs = advise(replacing(cleanSet(), rep(2, roll: 6), rep(5, roll: 6)))
    #expect(recs.map(\.rep) == [2, 5])
  }

  // MARK: velocity_loss

  private func fadingSet(last: Double) -> [RepAnalysis] {
    [0.60, 0.58, 0.55, 0.50, last].enumerated().map { rep($0.offset + 1, mv: $0.element) }
  }

  @Test func velocityLossAboveTwentyPercentIsAWarning() {
    // (0.60 − 0.47) / 0.60 = 21.7 %.
    #expect(
      advise(fadingSet(last: 0.47)) == [
        Recommendation(
          code: "velocity_loss", severity: .warning, rep: nil,
          message:
            "Bar speed fell 21.7% from your fastest rep (rep 1, 0.60 m/s) to your last (rep 5, 0.47 m/s). Past about 20%, extra reps add fatigue faster than strength. End the set sooner or lighten the load."
        )
      ])
  }

  @Test func velocityLossJustUnderTwentyPercentIsQuiet() {
    // 19.8 %.
    #expect(advise(fadingSet(last: 0.481)).isEmpty)
  }

  @Test func velocityLossAboveFortyPercentSaysNearFailure() {
    let recs = advise(fadingSet(last: 0.35))
    #expect(recs.count == 1)
    #expect(recs.first?.message.hasPrefix("Bar speed fell 41.7% ") == true)
    #expect(recs.first?.message.contains("Past 40% you are close to failure") == true)
  }

  // MARK: ordering and noise

  @Test func orderIsByCodeThenRepAndAtMostOnePerCodePerRep() {
    let reps = [
      rep(1, mv: 0.6, roll: 8),
      rep(2, mv: 0.55, dip: 0.2, stickingCm: 15),
      rep(3, rom: 40, mv: 0.5, quarter: 0.25, propulsive: 0.5),
      rep(4, mv: 0.45, roll: 9),
      rep(5, mv: 0.4),
    ]
    let recs = advise(reps)
    #expect(
      recs.map(\.code) == [
        "range_of_motion", "weak_point", "explosiveness", "bar_tilt", "bar_tilt", "velocity_loss",
      ])
    #expect(recs.map(\.rep) == [3, 2, 3, 1, 4, nil])
    #expect(advise(reps) == recs)
  }

  @Test func randomSetsNeverRepeatACodeForARepAndStaySorted() {
    var seed: UInt64 = 0x5EED
    func next() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(seed >> 11) / Double(1 << 53)
    }
    let order = RecommendationCode.allCases.map(\.rawValue)
    for _ in 0..<500 {
      let count = 1 + Int(next() * 10)
      let reps = (1...count).map { i in
        rep(
          i, rom: 35 + next() * 20, mv: 0.2 + next() * 0.8, timeToPeak: next(),
          quarter: (next() * 4) * 0.25, propulsive: 0.4 + next() * 0.6,
          dip: next() < 0.5 ? nil : next() * 0.3, stickingCm: next() * 40,
          pitch: next() * 14, roll: next() * 14)
      }
      let recs = Coach.recommendations(for: reps, exercise: nil, loadKg: nil)
      let keys = recs.map { "\($0.code)#\($0.rep ?? 0)" }
      #expect(Set(keys).count == keys.count)
      let sortKeys: [Int] = recs.map { r in
        (order.firstIndex(of: r.code) ?? -1) * 1000 + (r.rep ?? 0)
      }
      #expect(sortKeys == sortKeys.sorted())
      #expect(recs.allSatisfy { !$0.message.isEmpty && !$0.message.contains("?") })
      #expect(Coach.recommendations(for: reps, exercise: nil, loadKg: nil) == recs)
    }
  }

  @Test func numbersAreFormattedDeterministically() {
    #expect(CoachText.fixed(0.125, 2) == "0.13")
    #expect(CoachText.fixed(3, 2) == "3.00")
    #expect(CoachText.fixed(-0.04, 1) == "0.0")
    #expect(CoachText.fixed(-2.06, 1) == "-2.1")
    #expect(CoachText.fixed(1.05, 2) == "1.05")
    #expect(CoachText.list(["a", "b", "c"]) == "a, b and c")
  }
}
