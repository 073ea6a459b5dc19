/// What the simulator did to the stream, so tests can check fault rates and
/// the lead can see how hostile a stream was.
public struct FaultLog: Sendable, Equatable, Codable {
  public var sonarSamples = 0
  public var spikes = 0
  public var spikyRegions = 0
  public var spikyRegionSamples = 0
  public var stuckRuns = 0
  public var stuckSamples = 0
  public var dropouts = 0
  public var droppedSamples = 0
  /// Pings the repository firmware sent no line for (no echo, out of range).
  public var skippedPings = 0
  public var garbageLines = 0
  public var bleStalls = 0
  /// Pings in a no-echo stretch that got no echo (scenario streams).
  public var noEchoPings = 0

  public init() {}

  /// Absent counts are zero, so truth files from before a counter existed
  /// still read.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    func count(_ key: CodingKeys) throws -> Int {
      try c.decodeIfPresent(Int.self, forKey: key) ?? 0
    }
    sonarSamples = try count(.sonarSamples)
    spikes = try count(.spikes)
    spikyRegions = try count(.spikyRegions)
    spikyRegionSamples = try count(.spikyRegionSamples)
    stuckRuns = try count(.stuckRuns)
    stuckSamples = try count(.stuckSamples)
    dropouts = try count(.dropouts)
    droppedSamples = try count(.droppedSamples)
    skippedPings = try count(.skippedPings)
    garbageLines = try count(.garbageLines)
    bleStalls = try count(.bleStalls)
    noEchoPings = try count(.noEchoPings)
  }

  /// The no-echo count only where there were any, so older truth files keep
  /// their bytes.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(sonarSamples, forKey: .sonarSamples)
    try c.encode(spikes, forKey: .spikes)
    try c.encode(spikyRegions, forKey: .spikyRegions)
    try c.encode(spikyRegionSamples, forKey: .spikyRegionSamples)
    try c.encode(stuckRuns, forKey: .stuckRuns)
    try c.encode(stuckSamples, forKey: .stuckSamples)
    try c.encode(dropouts, forKey: .dropouts)
    try c.encode(droppedSamples, forKey: .droppedSamples)
    try c.encode(skippedPings, forKey: .skippedPings)
    try c.encode(garbageLines, forKey: .garbageLines)
    try c.encode(bleStalls, forKey: .bleStalls)
    if noEchoPings > 0 { try c.encode(noEchoPings, forKey: .noEchoPings) }
  }

  enum CodingKeys: String, CodingKey {
    case sonarSamples = "sonar_samples"
    case spikes
    case spikyRegions = "spiky_regions"
    case spikyRegionSamples = "spiky_region_samples"
    case stuckRuns = "stuck_runs"
    case stuckSamples = "stuck_samples"
    case dropouts
    case droppedSamples = "dropped_samples"
    case skippedPings = "skipped_pings"
    case garbageLines = "garbage_lines"
    case bleStalls = "ble_stalls"
    case noEchoPings = "no_echo_pings"
  }
}
