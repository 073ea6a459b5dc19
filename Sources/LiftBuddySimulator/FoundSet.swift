import LiftBuddyCore

/// A set as some analysis reported it, reduced to what the scorer compares:
/// liftbuddy's lift reports and the baseline script's JSON both become this.
public struct FoundSet: Sendable, Equatable, Decodable {
  public var startS: Double
  public var endS: Double
  public var reps: [FoundRep]

  public init(startS: Double, endS: Double, reps: [FoundRep]) {
    self.startS = startS
    self.endS = endS
    self.reps = reps
  }

  public init(_ report: LiftReport) {
    self.init(startS: report.startS, endS: report.endS, reps: report.reps.map(FoundRep.init))
  }

  enum CodingKeys: String, CodingKey {
    case startS = "start_s"
    case endS = "end_s"
    case reps
  }
}

/// One reported rep. Tilt and sticking point are optional: a tool that does
/// not measure them is not scored on them.
public struct FoundRep: Sendable, Equatable, Decodable {
  public var concentricStartS: Double
  public var concentricEndS: Double
  public var romCm: Double
  public var meanVelocityMps: Double
  public var peakVelocityMps: Double
  public var stickingPointCm: Double?
  public var maxAbsPitchDeg: Double?
  public var maxAbsRollDeg: Double?

  public init(
    concentricStartS: Double, concentricEndS: Double, romCm: Double, meanVelocityMps: Double,
    peakVelocityMps: Double, stickingPointCm: Double? = nil, maxAbsPitchDeg: Double? = nil,
    maxAbsRollDeg: Double? = nil
  ) {
    self.concentricStartS = concentricStartS
    self.concentricEndS = concentricEndS
    self.romCm = romCm
    self.meanVelocityMps = meanVelocityMps
    self.peakVelocityMps = peakVelocityMps
    self.stickingPointCm = stickingPointCm
    self.maxAbsPitchDeg = maxAbsPitchDeg
    self.maxAbsRollDeg = maxAbsRollDeg
  }

  public init(_ rep: RepReport) {
    self.init(
      concentricStartS: rep.concentricStartS, concentricEndS: rep.concentricEndS,
      romCm: rep.romCm, meanVelocityMps: rep.meanVelocityMps, peakVelocityMps: rep.peakVelocityMps,
      stickingPointCm: rep.stickingPointCm, maxAbsPitchDeg: rep.maxAbsPitchDeg,
      maxAbsRollDeg: rep.maxAbsRollDeg)
  }

  enum CodingKeys: String, CodingKey {
    case concentricStartS = "concentric_start_s"
    case concentricEndS = "concentric_end_s"
    case romCm = "rom_cm"
    case meanVelocityMps = "mean_velocity_mps"
    case peakVelocityMps = "peak_velocity_mps"
    case stickingPointCm = "sticking_point_cm"
    case maxAbsPitchDeg = "max_abs_pitch_deg"
    case maxAbsRollDeg = "max_abs_roll_deg"
  }
}
