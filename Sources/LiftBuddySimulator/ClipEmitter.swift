/// One line as the clip printed it: when its sample was taken, when it left
/// the clip (the transport's starting point), and its bytes.
struct EmittedLine {
  var sampleTime: Double
  var printTime: Double
  var bytes: [UInt8]
  var isSonar: Bool
}

/// The clip's main loop on its own crystal: ping, wait for the echo, read
/// the IMU, print; in the variants `ClipFirmware` describes.
struct ClipEmitter {
  /// A cheap crystal or ceramic resonator is good to about ±0.5 %.
  static let clockDrift: ClosedRange<Double> = -0.005...0.005
  /// Interrupts and serial writes make each loop a little early or late.
  static let loopJitterS: ClosedRange<Double> = -0.0008...0.0008
  /// Sound's round trip per centimetre of distance at 20 °C (2 / 343.4 m/s).
  static let echoSPerCm = 2 / 34_340.0
  /// The original sketch reads and prints the IMU right after the sonar.
  static let imuAfterEchoS = 0.002
  /// The recording starts this long after the clip was powered on; the
  /// repository firmware's `a:` lines wait ≥ 1 s for gyro calibration.
  static let powerOnBeforeRecordingS: ClosedRange<Double> = 0...3
  static let calibrationS: ClosedRange<Double> = 1...1.6

  let firmware: ClipFirmware
  let nominalRateHz: Double
  let drift: Double
  /// An original clip that `delay()`s after `pulseIn`: its period is the
  /// delay plus the echo, so it samples faster when the bar is low.
  let waitsForEcho: Bool
  /// Device clock (ms) at recording time 0, for the `<millis>` field.
  let millisAtStart: Double
  /// When the first `a:` line may go out (recording clock).
  let imuStart: Double
  /// Offset of the IMU sample sent with each ping, within the ping period
  /// (repository firmware: the 100 Hz filter's every 5th output).
  let imuPhase: Double
  /// Sample-clock times of every `s:` line printed, in print order, for the
  /// raw-capture clock.
  private(set) var sonarTimes: [Double] = []

  init(firmware: ClipFirmware, nominalRateHz: Double, timerGridOnly: Bool, rng: inout SeededRandom)
  {
    self.firmware = firmware
    self.nominalRateHz = nominalRateHz
    drift = rng.uniform(Self.clockDrift)
    let delayLoop = rng.chance(0.5)
    waitsForEcho = firmware == .original && !timerGridOnly && delayLoop
    let poweredOn = rng.uniform(Self.powerOnBeforeRecordingS)
    millisAtStart = (poweredOn + rng.uniform(0...600)) * 1000
    let calibrated = rng.uniform(Self.calibrationS) - poweredOn
    imuStart = firmware == .liftbuddy ? max(calibrated, 0) : 0
    imuPhase = rng.uniform(0...(1 / nominalRateHz))
  }

  mutating func emit(
    plan: SessionPlan, sonar: inout SonarModel, imu: ImuModel, noise: NoiseLevel,
    avoidSonarGarbage: Bool, rng: inout SeededRandom, log: inout FaultLog
  ) -> [EmittedLine] {
    // The period on the true clock: the crystal's drift stretches it.
    let period = (1 / nominalRateHz) / (1 + drift)
    var lines: [EmittedLine] = []
    var ping = rng.uniform(0...period)
    let hazard = FaultHazard(plan: plan)
    var pingCount = 0
    while ping < plan.durationS {
      let height = plan.sensor.apparentHeight(plan.trajectory.height(at: ping), at: ping)
      let echoDone = ping + Self.echoSPerCm * height
      pingCount += 1
      let reading =
        pingCount % 2 == 0 && plan.sensor.isNoEcho(at: ping)
        ? sonar.noEcho(log: &log)
        : sonar.reading(
          heightCm: height, at: ping,
          hazard: hazard.multiplier(at: ping, heightCm: height) * plan.sensor.echoFactor,
          rng: &rng,
          log: &log)
      if let reading {
        let text = "s:" + reading + millisField(at: ping)
        appendGarbage(
          at: echoDone, to: &lines, noise: noise, avoidSonar: avoidSonarGarbage, rng: &rng,
          log: &log)
        lines.append(
          EmittedLine(sampleTime: ping, printTime: echoDone, bytes: Array(text.utf8), isSonar: true)
        )
      }
      for i in 0..<imu.linesPerSonarSample {
        let sampled: Double
        switch firmware {
        case .original:
          sampled =
            echoDone + Self.imuAfterEchoS + Double(i) * period / Double(imu.linesPerSonarSample)
        case .liftbuddy: sampled = ping + imuPhase
        }
        guard sampled >= imuStart, sampled < plan.durationS else { continue }
        let text = "a:" + imu.reading(at: sampled, rng: &rng) + millisField(at: sampled)
        appendGarbage(
          at: sampled, to: &lines, noise: noise, avoidSonar: avoidSonarGarbage, rng: &rng, log: &log
        )
        lines.append(
          EmittedLine(
            sampleTime: sampled, printTime: sampled, bytes: Array(text.utf8), isSonar: false))
      }
      let nextPing = ping + period + rng.uniform(Self.loopJitterS)
      // A delay loop's period is the delay plus this ping's echo wait; the
      // delay is set so that the period is nominal with the bar at 1 m.
      ping = waitsForEcho ? nextPing + Self.echoSPerCm * (height - 100) : nextPing
    }
    // Lines leave the clip in the order they were written.
    lines = lines.enumerated().sorted { a, b in
      a.element.printTime != b.element.printTime
        ? a.element.printTime < b.element.printTime : a.offset < b.offset
    }.map(\.element)
    sonarTimes = lines.filter(\.isSonar).map(\.sampleTime)
    return lines
  }

  /// `:<millis>` for the repository firmware: the device clock, which runs
  /// with the crystal's drift and counts whole milliseconds.
  private func millisField(at t: Double) -> String {
    guard firmware == .liftbuddy else { return "" }
    return ":" + String(Int64((millisAtStart + t * 1000 * (1 + drift)).rounded(.down)))
  }

  private func appendGarbage(
    at t: Double, to lines: inout [EmittedLine], noise: NoiseLevel, avoidSonar: Bool,
    rng: inout SeededRandom, log: inout FaultLog
  ) {
    guard rng.chance(noise.faultRates.garbage) else { return }
    log.garbageLines += 1
    lines.append(
      EmittedLine(
        sampleTime: t, printTime: t,
        bytes: GarbageLines.make(rng: &rng, avoidSonarPrefix: avoidSonar),
        isSonar: false))
  }
}
