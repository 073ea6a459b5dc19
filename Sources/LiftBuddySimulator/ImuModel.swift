import Foundation

/// The MPU6050's view of the bar: a true attitude (small mounting offsets, a
/// slow sway, and tilt episodes where the lifter lets one side drift) and
/// the noisy, rounded `a:` lines the clip prints from it.
public struct ImuModel: Sendable {
  /// A raised-cosine tilt over a time window: zero at both ends, the full
  /// amplitude in the middle.
  public struct TiltEpisode: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var pitchDeg: Double
    public var rollDeg: Double

    func factor(at t: Double) -> Double {
      guard t > start, t < end else { return 0 }
      return (1 - cos(2 * Double.pi * (t - start) / (end - start))) / 2
    }
  }

  /// Mounting offsets: the clip is never perfectly level on the sleeve.
  static let offsetDeg: ClosedRange<Double> = -1.5...1.5
  static let swayDeg: ClosedRange<Double> = 0.2...0.6
  static let swayPeriodS: ClosedRange<Double> = 3...9
  static let noiseDeg: ClosedRange<Double> = 0.2...0.5
  /// The repository firmware's complementary filter smooths the noise.
  static let filteredNoiseDeg: ClosedRange<Double> = 0.1...0.3
  /// A rep with a visible roll: one hand lockout lags the other.
  static let tiltRollDeg: ClosedRange<Double> = 4...12
  static let tiltPitchDeg: ClosedRange<Double> = 2...5
  static let tiltChancePerRep = 0.3
  static let pitchTiltChancePerRep = 0.2

  public let pitchOffset: Double
  public let rollOffset: Double
  let swayAmplitude: Double
  let swayPeriod: Double
  let swayPhase: Double
  public let noiseSigmaDeg: Double
  /// Lines per sonar sample: the IMU runs at the sonar's rate or twice it.
  public let linesPerSonarSample: Int
  public let decimals: Int
  public let episodes: [TiltEpisode]

  init(plan: SessionPlan, firmware: ClipFirmware, rng: inout SeededRandom) {
    pitchOffset = rng.uniform(Self.offsetDeg)
    rollOffset = rng.uniform(Self.offsetDeg)
    swayAmplitude = rng.uniform(Self.swayDeg)
    swayPeriod = rng.uniform(Self.swayPeriodS)
    swayPhase = rng.uniform(0...(2 * Double.pi))
    let filtered = firmware == .liftbuddy
    noiseSigmaDeg = rng.uniform(
      plan.sensor.imuNoiseDeg ?? (filtered ? Self.filteredNoiseDeg : Self.noiseDeg))
    let doubleRate = rng.chance(0.5)
    linesPerSonarSample = doubleRate && !filtered ? 2 : 1
    let integers = rng.chance(0.5)
    decimals = integers && !filtered ? 0 : 1
    var episodes: [TiltEpisode] = []
    for set in plan.sets {
      for rep in set.reps {
        let rolls = rng.chance(Self.tiltChancePerRep)
        let pitches = rng.chance(Self.pitchTiltChancePerRep)
        guard rolls || pitches else { continue }
        let start = (rep.eccentricStart ?? rep.concentricPulseStart) - 0.2
        episodes.append(
          TiltEpisode(
            start: start, end: rep.concentricPulseEnd + 0.4,
            pitchDeg: pitches ? rng.sign() * rng.uniform(Self.tiltPitchDeg) : 0,
            rollDeg: rolls ? rng.sign() * rng.uniform(Self.tiltRollDeg) : 0))
      }
    }
    // Unracking and walking tilt the bar a little too.
    for move in plan.nonReps where move.kind != .rest {
      let (pitch, roll) = Self.handlingTilt(move.kind)
      episodes.append(
        TiltEpisode(
          start: move.startS, end: move.endS + 0.2, pitchDeg: rng.sign() * rng.uniform(pitch),
          rollDeg: rng.sign() * rng.uniform(roll)))
    }
    self.episodes = episodes.sorted { $0.start < $1.start }
  }

  /// How far a non-rep move tilts the clip (pitch, roll): a little for
  /// rack moves and carries, a lot when the clip itself is handled or the
  /// sleeve turns as the bar rolls.
  static func handlingTilt(_ kind: NonRepPlan.Kind) -> (ClosedRange<Double>, ClosedRange<Double>) {
    switch kind {
    case .clipHandling: (10...40, 10...40)
    case .roll: (20...60, 0.5...3)
    case .clean, .drop, .failedRep: (2...8, 2...8)
    default: (0.5...2.5, 0.5...3)
    }
  }

  /// The true attitude at `t`, in degrees.
  public func attitude(at t: Double) -> (pitch: Double, roll: Double) {
    let sway = swayAmplitude * sin(2 * Double.pi * t / swayPeriod + swayPhase)
    var pitch = pitchOffset + 0.5 * sway
    var roll = rollOffset + sway
    for episode in episodes where episode.start < t && episode.end > t {
      let f = episode.factor(at: t)
      pitch += f * episode.pitchDeg
      roll += f * episode.rollDeg
    }
    return (pitch, roll)
  }

  /// The `a:` line's fields (without `a:`) for a sample taken at `t`.
  func reading(at t: Double, rng: inout SeededRandom) -> String {
    let (pitch, roll) = attitude(at: t)
    let p = pitch + noiseSigmaDeg * rng.gaussian()
    let r = roll + noiseSigmaDeg * rng.gaussian()
    return FixedDecimal.format(p, decimals: decimals) + ":"
      + FixedDecimal.format(r, decimals: decimals)
  }
}
