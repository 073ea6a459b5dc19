import Testing

@testable import LiftBuddyCore

/// `RepMeasurer.stickingPoint` on velocity curves made to order.
@Suite struct StickingPointTests {
  func curve(_ velocities: [Double]) -> [Kinematics] {
    velocities.enumerated().map {
      Kinematics(t: Double($0.offset) / 20, position: 0, velocity: $0.element, acceleration: 0)
    }
  }

  @Test func aDipBetweenTwoBurstsIsAStickingPoint() {
    let k = curve([0, 0.3, 0.6, 0.8, 0.6, 0.4, 0.35, 0.5, 0.7, 0.8, 0.5, 0.2, 0])
    let found = RepMeasurer.stickingPoint(k, from: -0.01, to: 0.61)
    #expect(found?.t == 0.3)
    #expect(abs((found?.fraction ?? 0) - 0.45 / 0.8) < 1e-12)
  }

  @Test func aWiggleWhileLeavingTheBottomIsNone() {
    // As on a rep measured across a burst of garbage: the velocity wiggles
    // at 1e-18 m/s before the drive, which once made a "dip" of 5e17 % of
    // that first "burst".
    let k = curve([0, 1e-18, 0, -0.2, 0.1, 0.5, 0.9, 1.0, 0.7, 0.3, 0])
    #expect(RepMeasurer.stickingPoint(k, from: -0.01, to: 0.51) == nil)
  }

  @Test func aStallThatSinksBackIsAllOfTheBurst() {
    let k = curve([0, 0.3, 0.5, 0.3, 0, -0.1, 0.2, 0.5, 0.6, 0.3, 0])
    let found = RepMeasurer.stickingPoint(k, from: -0.01, to: 0.51)
    #expect(found?.t == 0.25)
    #expect(found?.fraction == 1)
  }

  /// The first test's dip (0.45 m/s) is more than the noise of a velocity
  /// read over 0.25 s of readings at 20 Hz with 0.5 cm of noise (0.03 m/s),
  /// not of one with 3 cm (0.19 m/s: 3·√2 of that is 0.79).
  @Test func aDipMustStandAboveTheVelocityNoise() {
    let k = curve([0, 0.3, 0.6, 0.8, 0.6, 0.4, 0.35, 0.5, 0.7, 0.8, 0.5, 0.2, 0])
    let readings = (0..<40).map { TimedHeight(t: Double($0) / 20, cm: 0) }
    for (noise, found) in [(0.5, true), (3.0, false)] {
      let velocityNoise = RepMeasurer.velocityNoise(noiseCm: noise, windowS: 0.25, readings)
      let minDip = max(
        RepMeasurer.stickingDipMps, RepMeasurer.stickingNoiseSigmas * velocityNoise)
      #expect(
        (RepMeasurer.stickingPoint(k, from: -0.01, to: 0.61, minDipMps: minDip) != nil) == found,
        "noise \(noise) cm: velocity noise \(velocityNoise), least dip \(minDip)")
    }
  }
}
