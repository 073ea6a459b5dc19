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
  public var garbageLines = 0
  public var bleStalls = 0

  public init() {}

  enum CodingKeys: String, CodingKey {
    case sonarSamples = "sonar_samples"
    case spikes
    case spikyRegions = "spiky_regions"
    case spikyRegionSamples = "spiky_region_samples"
    case stuckRuns = "stuck_runs"
    case stuckSamples = "stuck_samples"
    case dropouts
    case droppedSamples = "dropped_samples"
    case garbageLines = "garbage_lines"
    case bleStalls = "ble_stalls"
  }
}
