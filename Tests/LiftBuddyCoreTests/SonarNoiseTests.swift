import Foundation
import Testing

@testable import LiftBuddyCore

/// Gaussian noise from a fixed seed (a 64-bit LCG through Box–Muller), so
/// a noisy stream is the same on every run.
struct SeededNoise {
  private var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func uniform() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (Double(state >> 11) + 0.5) / Double(1 << 53)
  }

  mutating func gaussian() -> Double {
    (-2 * Foundation.log(uniform())).squareRoot() * Foundation.cos(2 * Double.pi * uniform())
  }
}

@Suite struct SonarNoiseTests {
  /// The estimate is the readings' noise, not the bar's motion: a set of
  /// squats at 20 Hz with 0, 1 and 2 cm of noise on 1 mm readings.
  @Test func measuresTheNoiseNotTheMotion() {
    let lift = SyntheticLift.squat(reps: 6)
    for sigma in [0.0, 1.0, 2.0] {
      var rng = SeededNoise(seed: 7)
      var noise = SonarNoise()
      var t = 0.0
      while t < lift.endTime {
        let cm = ((lift.height(at: t) + sigma * rng.gaussian()) * 10).rounded() / 10
        noise.push(TimedHeight(t: t, cm: cm))
        t += 0.05
      }
      #expect(abs(noise.sigmaCm - sigma) <= 0.15 * sigma + 0.05, "σ \(sigma): \(noise.sigmaCm)")
    }
  }

  /// A sonar over a rubber mat (±2 cm, whole-cm readings): three sets of
  /// five presses with 40 s between them. With thresholds for a hard floor
  /// the rests were full of turns (one set of 15) and the lockouts never
  /// held (first reps lost).
  @Test func aNoisySonarStillEndsSetsAndHoldsLockouts() {
    var phases: [SyntheticLift.Phase] = []
    for set in 0..<3 {
      if set > 0 { phases.append(.init(duration: 40, deltaCm: 0)) }
      for _ in 0..<5 {
        phases += [.init(duration: 0.9, deltaCm: 52), .init(duration: 0.4, deltaCm: 0)]
        phases += [.init(duration: 1.0, deltaCm: -52), .init(duration: 1.0, deltaCm: 0)]
      }
    }
    let lift = SyntheticLift(startCm: 88, leadIn: 4, phases: phases)
    let lines = lift.noisyLines(rateHz: 20, sigmaCm: 2, seed: 11)
    let press = SessionInfo(source: "test", exercise: .overheadPress)
    let reports = analyze(lines, session: press).reports
    #expect(reports.map(\.reps.count) == [5, 5, 5])
    let errors = zip(reports.flatMap(\.reps), lift.truth).map { $0.romCm - $1.romCm }
    #expect(errors.map(abs).reduce(0, +) / Double(max(errors.count, 1)) < 2)
  }
}

extension SonarNoiseTests {
  /// Squats with no sticking point, read through 2.5 cm of noise: the
  /// velocity curve wanders by a tenth of a metre per second, and with the
  /// hard floor's dip threshold half of these reps "had" a sticking point.
  @Test func noiseIsNoStickingPoint() {
    let lift = SyntheticLift.squat(reps: 8, up: 1.2)
    let lines = lift.noisyLines(rateHz: 20, sigmaCm: 2.5, seed: 3)
    let reps = analyze(lines).reports.flatMap(\.reps)
    #expect(reps.count == 8)
    #expect(reps.filter { $0.stickingPointCm != nil }.isEmpty, "\(reps.map(\.stickingPointCm))")
  }
}
