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
}
