/// The lift report of one set, exactly the shape of
/// `lift-report.schema.json` (`liftbuddy/lift-report@1`).
///
/// Numbers are rounded when the report is built (see `ReportRounding`), so
/// that the same stream always prints the same bytes and no reader is shown
/// precision the sensor does not have.
public struct LiftReport: Codable, Equatable, Sendable {
  public static let schemaID = "liftbuddy/lift-report@1"

  public var schema: String = LiftReport.schemaID
  public var id: String
  public var source: String
  public var exercise: String?
  public var loadKg: Double?
  /// UTC, RFC 3339.
  public var startedAt: String
  public var endedAt: String
  /// Start and end of the set on the source clock.
  public var startS: Double
  public var endS: Double
  public var reps: [RepReport]
  public var summary: SetSummary
  public var recommendations: [Recommendation]
  public var quality: QualityCounts

  public init(
    id: String, source: String, exercise: String?, loadKg: Double?, startedAt: String,
    endedAt: String, startS: Double, endS: Double, reps: [RepReport], summary: SetSummary,
    recommendations: [Recommendation], quality: QualityCounts
  ) {
    self.id = id
    self.source = source
    self.exercise = exercise
    self.loadKg = loadKg
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.startS = startS
    self.endS = endS
    self.reps = reps
    self.summary = summary
    self.recommendations = recommendations
    self.quality = quality
  }

  enum CodingKeys: String, CodingKey {
    case schema, id, source, exercise
    case loadKg = "load_kg"
    case startedAt = "started_at"
    case endedAt = "ended_at"
    case startS = "start_s"
    case endS = "end_s"
    case reps, summary, recommendations, quality
  }

  /// Explicit nulls (`encodeOrNull`), so that subscribers see "unknown"
  /// rather than a missing key.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(schema, forKey: .schema)
    try c.encode(id, forKey: .id)
    try c.encode(source, forKey: .source)
    try c.encodeOrNull(exercise, forKey: .exercise)
    try c.encodeOrNull(loadKg, forKey: .loadKg)
    try c.encode(startedAt, forKey: .startedAt)
    try c.encode(endedAt, forKey: .endedAt)
    try c.encode(startS, forKey: .startS)
    try c.encode(endS, forKey: .endS)
    try c.encode(reps, forKey: .reps)
    try c.encode(summary, forKey: .summary)
    try c.encode(recommendations, forKey: .recommendations)
    try c.encode(quality, forKey: .quality)
  }
}

/// One rep: its concentric phase and what happened in it.
public struct RepReport: Codable, Equatable, Sendable {
  /// 1-based within the set.
  public var index: Int
  public var concentricStartS: Double
  public var concentricEndS: Double
  public var romCm: Double
  public var meanVelocityMps: Double
  public var peakVelocityMps: Double
  public var meanPropulsiveVelocityMps: Double
  public var timeToPeakVelocityS: Double
  public var peakAccelerationMps2: Double
  public var eccentricDurationS: Double?
  public var stickingPointCm: Double?
  public var maxAbsPitchDeg: Double?
  public var maxAbsRollDeg: Double?

  public init(
    index: Int, concentricStartS: Double, concentricEndS: Double, romCm: Double,
    meanVelocityMps: Double, peakVelocityMps: Double, meanPropulsiveVelocityMps: Double,
    timeToPeakVelocityS: Double, peakAccelerationMps2: Double, eccentricDurationS: Double?,
    stickingPointCm: Double?, maxAbsPitchDeg: Double?, maxAbsRollDeg: Double?
  ) {
    self.index = index
    self.concentricStartS = concentricStartS
    self.concentricEndS = concentricEndS
    self.romCm = romCm
    self.meanVelocityMps = meanVelocityMps
    self.peakVelocityMps = peakVelocityMps
    self.meanPropulsiveVelocityMps = meanPropulsiveVelocityMps
    self.timeToPeakVelocityS = timeToPeakVelocityS
    self.peakAccelerationMps2 = peakAccelerationMps2
    self.eccentricDurationS = eccentricDurationS
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
    case meanPropulsiveVelocityMps = "mean_propulsive_velocity_mps"
    case timeToPeakVelocityS = "time_to_peak_velocity_s"
    case peakAccelerationMps2 = "peak_acceleration_mps2"
    case eccentricDurationS = "eccentric_duration_s"
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
    try c.encode(meanPropulsiveVelocityMps, forKey: .meanPropulsiveVelocityMps)
    try c.encode(timeToPeakVelocityS, forKey: .timeToPeakVelocityS)
    try c.encode(peakAccelerationMps2, forKey: .peakAccelerationMps2)
    try c.encodeOrNull(eccentricDurationS, forKey: .eccentricDurationS)
    try c.encodeOrNull(stickingPointCm, forKey: .stickingPointCm)
    try c.encodeOrNull(maxAbsPitchDeg, forKey: .maxAbsPitchDeg)
    try c.encodeOrNull(maxAbsRollDeg, forKey: .maxAbsRollDeg)
  }
}

public struct SetSummary: Codable, Equatable, Sendable {
  public var repCount: Int
  public var bestMeanVelocityMps: Double?
  /// Drop from the fastest rep's mean velocity to the last rep's, in percent.
  public var velocityLossPct: Double?
  public var estimatedOneRepMaxKg: Double?

  public init(
    repCount: Int, bestMeanVelocityMps: Double?, velocityLossPct: Double?,
    estimatedOneRepMaxKg: Double?
  ) {
    self.repCount = repCount
    self.bestMeanVelocityMps = bestMeanVelocityMps
    self.velocityLossPct = velocityLossPct
    self.estimatedOneRepMaxKg = estimatedOneRepMaxKg
  }

  enum CodingKeys: String, CodingKey {
    case repCount = "rep_count"
    case bestMeanVelocityMps = "best_mean_velocity_mps"
    case velocityLossPct = "velocity_loss_pct"
    case estimatedOneRepMaxKg = "estimated_one_rep_max_kg"
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(repCount, forKey: .repCount)
    try c.encodeOrNull(bestMeanVelocityMps, forKey: .bestMeanVelocityMps)
    try c.encodeOrNull(velocityLossPct, forKey: .velocityLossPct)
    try c.encodeOrNull(estimatedOneRepMaxKg, forKey: .estimatedOneRepMaxKg)
  }
}

public struct Recommendation: Codable, Equatable, Sendable {
  public enum Severity: String, Codable, Sendable { case info, warning }
  /// Stable machine-readable key (see `RecommendationCode`).
  public var code: String
  public var severity: Severity
  /// The rep it concerns, or nil for the whole set.
  public var rep: Int?
  public var message: String

  public init(code: String, severity: Severity, rep: Int?, message: String) {
    self.code = code
    self.severity = severity
    self.rep = rep
    self.message = message
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(code, forKey: .code)
    try c.encode(severity, forKey: .severity)
    try c.encodeOrNull(rep, forKey: .rep)
    try c.encode(message, forKey: .message)
  }
}

/// What the pipeline saw and rejected, for one set (from the end of the
/// previous set, or the start of the stream, to the end of this one).
public struct QualityCounts: Codable, Equatable, Sendable {
  public var lines: Int = 0
  public var badLines: Int = 0
  public var spikesRemoved: Int = 0
  public var gaps: Int = 0
  /// Well-formed lines dropped because they came faster than any clip sends
  /// (`RateLimit`): a flood, a crafted file.
  public var droppedLines: Int = 0

  public init(
    lines: Int = 0, badLines: Int = 0, spikesRemoved: Int = 0, gaps: Int = 0, droppedLines: Int = 0
  ) {
    self.lines = lines
    self.badLines = badLines
    self.spikesRemoved = spikesRemoved
    self.gaps = gaps
    self.droppedLines = droppedLines
  }

  enum CodingKeys: String, CodingKey {
    case lines
    case badLines = "bad_lines"
    case spikesRemoved = "spikes_removed"
    case gaps
    case droppedLines = "dropped_lines"
  }

  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    lines = try c.decode(Int.self, forKey: .lines)
    badLines = try c.decode(Int.self, forKey: .badLines)
    spikesRemoved = try c.decode(Int.self, forKey: .spikesRemoved)
    gaps = try c.decode(Int.self, forKey: .gaps)
    droppedLines = try c.decodeIfPresent(Int.self, forKey: .droppedLines) ?? 0
  }

  /// `dropped_lines` is written only when lines were dropped: a report of a
  /// normal set keeps the 1.0 shape, byte for byte.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(lines, forKey: .lines)
    try c.encode(badLines, forKey: .badLines)
    try c.encode(spikesRemoved, forKey: .spikesRemoved)
    try c.encode(gaps, forKey: .gaps)
    if droppedLines > 0 { try c.encode(droppedLines, forKey: .droppedLines) }
  }

  public static func + (a: QualityCounts, b: QualityCounts) -> QualityCounts {
    QualityCounts(
      lines: a.lines + b.lines, badLines: a.badLines + b.badLines,
      spikesRemoved: a.spikesRemoved + b.spikesRemoved, gaps: a.gaps + b.gaps,
      droppedLines: a.droppedLines + b.droppedLines)
  }
}
