import Foundation

/// The HC-SR04 as the clip reads it: bar height plus the clip's mounting
/// offset, Gaussian noise, rounding to the clip's print format, and the
/// faults real ultrasonic rangers produce in a gym.
struct SonarModel {
  /// The sensor sits a little above or below the bar's axis.
  static let clipOffsetCm: ClosedRange<Double> = -3...3
  static let spikyRegionLength: ClosedRange<Int> = 2...8
  static let stuckLength: ClosedRange<Int> = 3...10
  static let dropoutS: ClosedRange<Double> = 0.1...0.6
  /// What an HC-SR04 library prints when no echo returns in time.
  static let noEchoCm: ClosedRange<Double> = 400...450

  let noise: NoiseLevel
  /// The Gaussian part of the noise (1 σ, cm): the level's, or a soft
  /// floor's (`SensorArtifacts.sonarNoiseCm`).
  let sigmaCm: Double
  let clipOffset: Double
  /// 0 (integers, as the original clip) or 1.
  let decimals: Int
  /// Raw captures are timed by counting `s:` lines, so a missing line would
  /// shift every later time: the clip never skips a line there (no
  /// dropouts, and no out-of-range readings a firmware would drop).
  let allowsMissingLines: Bool
  let firmware: ClipFirmware
  /// The speed-of-sound error (`SensorArtifacts.speedOfSoundScale`).
  let scale: Double

  private var spikyLeft = 0
  private var stuckLeft = 0
  private var dropoutUntil = -Double.infinity
  private var lastPrinted: String?

  init(
    noise: NoiseLevel, firmware: ClipFirmware, allowsMissingLines: Bool, scale: Double = 1,
    sigmaCm: Double? = nil, rng: inout SeededRandom
  ) {
    self.noise = noise
    self.sigmaCm = sigmaCm ?? noise.sonarSigmaCm
    self.scale = scale
    self.firmware = firmware
    self.allowsMissingLines = allowsMissingLines
    clipOffset = rng.uniform(Self.clipOffsetCm)
    let someBuildsPrintDecimals = rng.chance(0.25)
    decimals = firmware == .liftbuddy || someBuildsPrintDecimals ? 1 : 0
  }

  /// The reading (as printed, without `s:`) for a sample of true height
  /// `heightCm` taken at `t`, or nil when no line is sent. `hazard` scales
  /// the spike rates (see `FaultHazard`).
  mutating func reading(
    heightCm: Double, at t: Double, hazard: Double, rng: inout SeededRandom, log: inout FaultLog
  ) -> String? {
    log.sonarSamples += 1
    if t < dropoutUntil {
      log.droppedSamples += 1
      return nil
    }
    let rates = noise.faultRates
    let value: String
    if spikyLeft > 0 {
      spikyLeft -= 1
      log.spikyRegionSamples += 1
      value = format(badDistance(heightCm, rng: &rng))
    } else if stuckLeft > 0, let last = lastPrinted {
      stuckLeft -= 1
      log.stuckSamples += 1
      value = last
    } else if allowsMissingLines, rng.chance(rates.dropout) {
      log.dropouts += 1
      log.droppedSamples += 1
      dropoutUntil = t + rng.uniform(Self.dropoutS)
      return nil
    } else if rng.chance(rates.spikyRegion * hazard) {
      log.spikyRegions += 1
      log.spikyRegionSamples += 1
      spikyLeft = rng.integer(Self.spikyRegionLength) - 1
      value = format(badDistance(heightCm, rng: &rng))
    } else if lastPrinted != nil, rng.chance(rates.stuck) {
      log.stuckRuns += 1
      log.stuckSamples += 1
      stuckLeft = rng.integer(Self.stuckLength) - 1
      value = lastPrinted ?? "0"
    } else if rng.chance(rates.spike * hazard) {
      log.spikes += 1
      value = format(badDistance(heightCm, rng: &rng))
    } else {
      value = format((heightCm + clipOffset + sigmaCm * rng.gaussian()) * scale)
    }
    if firmware == .liftbuddy, let cm = Double(value), !ClipFirmware.sonarRangeCm.contains(cm) {
      log.skippedPings += 1
      return nil
    }
    lastPrinted = value
    return value
  }

  /// A ping that heard no echo: the original clip prints the library's
  /// timeout distance, the repository firmware sends nothing. Raw captures
  /// never lose a line (their clock is the line count), so there the clip
  /// repeats its last value instead.
  mutating func noEcho(log: inout FaultLog) -> String? {
    log.sonarSamples += 1
    log.noEchoPings += 1
    if firmware == .liftbuddy {
      guard allowsMissingLines, lastPrinted != nil else { return lastPrinted }
      log.skippedPings += 1
      return nil
    }
    return format(Self.noEchoCm.lowerBound)
  }

  /// A reading that has nothing to do with the bar's height: no echo, a
  /// zero, the lifter's foot or a plate rim under the clip, or a multipath
  /// echo anywhere in range.
  private func badDistance(_ heightCm: Double, rng: inout SeededRandom) -> Double {
    // Where the firmware drops out-of-range readings, a raw capture must
    // not lose lines: only in-range wrong readings there.
    let kinds = firmware == .liftbuddy && !allowsMissingLines ? 2...4 : 0...4
    switch rng.integer(kinds) {
    case 0: return 0
    case 1: return rng.uniform(Self.noEchoCm)
    case 2: return heightCm * rng.uniform(0.15...0.6)
    case 3: return rng.uniform(5...25)
    default: return rng.uniform(2...300)
    }
  }

  private func format(_ cm: Double) -> String {
    FixedDecimal.format(max(cm, 0), decimals: decimals)
  }
}
