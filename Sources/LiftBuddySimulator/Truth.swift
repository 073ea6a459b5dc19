/// What really happened in a stream (`<stream>.truth.json`): the sets and
/// reps the analysis should find, on the stream's own clock, and the
/// movements it should not count.
public struct Truth: Codable, Sendable, Equatable {
  public static let formatID = "liftbuddy-truth 1"

  public var format: String = Truth.formatID
  public var stream: String
  /// Absent for hand-made streams.
  public var seed: UInt64?
  public var transport: String?
  public var noise: String?
  /// Which clip program the stream imitates (`ClipFirmware`).
  public var firmware: String?
  public var sets: [TruthSet]
  public var nonReps: [NonRepPlan]
  /// What the simulator did to the stream; absent for hand-made streams.
  public var faults: FaultLog?
  /// The named scenario (`liftbuddy simulate --scenario`), if any.
  public var scenario: String? = nil
  /// The sonar read distances times this (the air's speed of sound against
  /// the clip's assumed one). Truth figures are the bar's real ones, so a
  /// scale of 1.03 makes a perfect analyzer read ROM and velocity 3 % high.
  public var speedOfSoundScale: Double? = nil

  public init(
    stream: String, seed: UInt64?, transport: String?, noise: String?, firmware: String? = nil,
    sets: [TruthSet],
    nonReps: [NonRepPlan], faults: FaultLog?
  ) {
    self.stream = stream
    self.seed = seed
    self.transport = transport
    self.noise = noise
    self.firmware = firmware
    self.sets = sets
    self.nonReps = nonReps
    self.faults = faults
  }

  /// The truth as the sensor saw it: ROM and velocities times the
  /// speed-of-sound scale, which is what a perfect analysis of the readings
  /// would report. Scoring against it separates the air's error from the
  /// analyzer's.
  public var inSensorFrame: Truth {
    guard let scale = speedOfSoundScale, scale != 1 else { return self }
    var t = self
    for i in t.sets.indices {
      for j in t.sets[i].reps.indices {
        t.sets[i].reps[j].romCm *= scale
        t.sets[i].reps[j].meanVelocityMps *= scale
        t.sets[i].reps[j].peakVelocityMps *= scale
        t.sets[i].reps[j].stickingPointCm = t.sets[i].reps[j].stickingPointCm.map { $0 * scale }
      }
    }
    t.speedOfSoundScale = nil
    return t
  }

  enum CodingKeys: String, CodingKey {
    case format, stream, seed, transport, noise, firmware, sets
    case nonReps = "non_reps"
    case faults, scenario
    case speedOfSoundScale = "speed_of_sound_scale"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(format, forKey: .format)
    try c.encode(stream, forKey: .stream)
    try c.encodeOrNull(seed, forKey: .seed)
    try c.encodeOrNull(transport, forKey: .transport)
    try c.encodeOrNull(noise, forKey: .noise)
    try c.encodeIfPresent(firmware, forKey: .firmware)
    try c.encode(sets, forKey: .sets)
    try c.encode(nonReps, forKey: .nonReps)
    try c.encodeIfPresent(faults, forKey: .faults)
    try c.encodeIfPresent(scenario, forKey: .scenario)
    try c.encodeIfPresent(speedOfSoundScale, forKey: .speedOfSoundScale)
  }
}

/// One set as performed.
public struct TruthSet: Codable, Sendable, Equatable {
  public var exercise: String?
  public var loadKg: Double?
  /// From the first rep's first movement to the last rep's last, on the
  /// stream clock: what a report's `start_s`…`end_s` should overlap.
  public var startS: Double
  public var endS: Double
  public var reps: [TruthRep]

  public init(exercise: String?, loadKg: Double?, startS: Double, endS: Double, reps: [TruthRep]) {
    self.exercise = exercise
    self.loadKg = loadKg
    self.startS = startS
    self.endS = endS
    self.reps = reps
  }

  enum CodingKeys: String, CodingKey {
    case exercise
    case loadKg = "load_kg"
    case startS = "start_s"
    case endS = "end_s"
    case reps
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encodeOrNull(exercise, forKey: .exercise)
    try c.encodeOrNull(loadKg, forKey: .loadKg)
    try c.encode(startS, forKey: .startS)
    try c.encode(endS, forKey: .endS)
    try c.encode(reps, forKey: .reps)
  }
}

/// One rep, measured on the noise-free trajectory (contract §4).
public struct TruthRep: Codable, Sendable, Equatable {
  public var index: Int
  public var concentricStartS: Double
  public var concentricEndS: Double
  public var romCm: Double
  public var meanVelocityMps: Double
  public var peakVelocityMps: Double
  public var eccentricStartS: Double?
  public var stickingPointCm: Double?
  public var maxAbsPitchDeg: Double?
  public var maxAbsRollDeg: Double?

  public init(
    index: Int, concentricStartS: Double, concentricEndS: Double, romCm: Double,
    meanVelocityMps: Double,
    peakVelocityMps: Double, eccentricStartS: Double?, stickingPointCm: Double?,
    maxAbsPitchDeg: Double?,
    maxAbsRollDeg: Double?
  ) {
    self.index = index
    self.concentricStartS = concentricStartS
    self.concentricEndS = concentricEndS
    self.romCm = romCm
    self.meanVelocityMps = meanVelocityMps
    self.peakVelocityMps = peakVelocityMps
    self.eccentricStartS = eccentricStartS
    self.stickingPointCm = stickingPointCm
    self.maxAbsPitchDeg = maxAbsPitchDeg
    self.maxAbsRollDeg = maxAbsRollDeg
  }

  enum CodingKeys: String, CodingKey {
    case index
    case concentricStartS = "concentric_start_s"
    case concentricEndS = "concentric_end_s"
    case romCm = "rom_cm"
    case meanVelocityMps = "mean_velocity_mps"
    case peakVelocityMps = "peak_velocity_mps"
    case eccentricStartS = "eccentric_start_s"
    case stickingPointCm = "sticking_point_cm"
    case maxAbsPitchDeg = "max_abs_pitch_deg"
    case maxAbsRollDeg = "max_abs_roll_deg"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(index, forKey: .index)
    try c.encode(concentricStartS, forKey: .concentricStartS)
    try c.encode(concentricEndS, forKey: .concentricEndS)
    try c.encode(romCm, forKey: .romCm)
    try c.encode(meanVelocityMps, forKey: .meanVelocityMps)
    try c.encode(peakVelocityMps, forKey: .peakVelocityMps)
    try c.encodeOrNull(eccentricStartS, forKey: .eccentricStartS)
    try c.encodeOrNull(stickingPointCm, forKey: .stickingPointCm)
    try c.encodeOrNull(maxAbsPitchDeg, forKey: .maxAbsPitchDeg)
    try c.encodeOrNull(maxAbsRollDeg, forKey: .maxAbsRollDeg)
  }
}
