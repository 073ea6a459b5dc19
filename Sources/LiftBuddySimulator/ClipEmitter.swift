/// One line as the clip printed it, with the time its sample was taken.
struct EmittedLine {
  var sampleTime: Double
  var bytes: [UInt8]
  var isSonar: Bool
}

/// The clip's main loop: ping the sonar, read the IMU (once or twice per
/// ping), print, repeat, on a crystal that runs a little fast or slow.
struct ClipEmitter {
  /// A cheap crystal or ceramic resonator is good to about ±0.5 %.
  static let clockDrift: ClosedRange<Double> = -0.005...0.005
  /// `pulseIn` waits for the echo, so each loop takes a little more or less.
  static let loopJitterS: ClosedRange<Double> = -0.0008...0.0008
  /// The IMU is read just after the ping returns.
  static let imuAfterPingS = 0.002

  let nominalRateHz: Double
  let drift: Double
  /// Sample-clock times of every `s:` line printed, for the raw-capture clock.
  private(set) var sonarTimes: [Double] = []

  init(nominalRateHz: Double, rng: inout SeededRandom) {
    self.nominalRateHz = nominalRateHz
    drift = rng.uniform(Self.clockDrift)
  }

  mutating func emit(
    plan: SessionPlan, sonar: inout SonarModel, imu: ImuModel, noise: NoiseLevel,
    avoidSonarGarbage: Bool,
    rng: inout SeededRandom, log: inout FaultLog
  ) -> [EmittedLine] {
    let period = (1 / nominalRateHz) * (1 + drift)
    var k = 0
    var lines: [EmittedLine] = []
    let first = rng.uniform(0...period)
    while true {
      let ping = first + Double(k) * period + rng.uniform(Self.loopJitterS)
      if ping >= plan.durationS { break }
      k += 1
      let height = plan.trajectory.height(at: max(ping, 0))
      if let line = sonar.line(heightCm: height, at: ping, rng: &rng, log: &log) {
        appendGarbage(
          at: ping, to: &lines, noise: noise, avoidSonar: avoidSonarGarbage, rng: &rng, log: &log)
        lines.append(EmittedLine(sampleTime: ping, bytes: Array(line.utf8), isSonar: true))
        sonarTimes.append(ping)
      }
      for i in 0..<imu.linesPerSonarSample {
        let at = ping + Self.imuAfterPingS + Double(i) * period / Double(imu.linesPerSonarSample)
        appendGarbage(
          at: at, to: &lines, noise: noise, avoidSonar: avoidSonarGarbage, rng: &rng, log: &log)
        lines.append(
          EmittedLine(
            sampleTime: at, bytes: Array(imu.line(at: at, rng: &rng).utf8), isSonar: false))
      }
    }
    return lines
  }

  private func appendGarbage(
    at t: Double, to lines: inout [EmittedLine], noise: NoiseLevel, avoidSonar: Bool,
    rng: inout SeededRandom,
    log: inout FaultLog
  ) {
    guard rng.chance(noise.faultRates.garbage) else { return }
    log.garbageLines += 1
    lines.append(
      EmittedLine(
        sampleTime: t, bytes: GarbageLines.make(rng: &rng, avoidSonarPrefix: avoidSonar),
        isSonar: false))
  }
}
