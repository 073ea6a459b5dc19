import LiftBuddyCore

/// Everything that decides a simulated stream. Anything left nil is drawn
/// from the seed, so a request plus its seed names one stream exactly.
public struct SimulationRequest: Sendable, Equatable {
  public var exercise: Exercise
  /// Reps per set.
  public var reps: Int
  public var sets: Int
  public var loadKg: Double
  public var seed: UInt64
  public var transport: Transport
  public var noise: NoiseLevel
  public var firmware: ClipFirmware
  /// Nominal sonar rate; nil draws 15–40 Hz (the repository firmware: 20 Hz).
  public var rateHz: Double?
  /// The last rep of each set is a grinder (0.15–0.3 m/s with a sticking point).
  public var grinder: Bool
  /// Every rep pauses at the bottom (0.3–1.5 s) instead of bouncing.
  public var paused: Bool
  /// Unrack, walk-out, walk-in and re-rack around each set (deadlift: set-up
  /// adjustments and plates settling), plus the odd adjustment between reps.
  public var rackMoves: Bool
  /// File name the truth refers to.
  public var streamName: String
  /// A scenario session (`SessionStyle`); nil is the original planner, whose
  /// streams keep their bytes. `reps`, `sets`, `paused`, `grinder` and
  /// `rackMoves` are then the style's business.
  public var style: SessionStyle? = nil
  /// The scenario's name, for the truth file.
  public var scenario: String? = nil

  public init(
    exercise: Exercise, reps: Int = 5, sets: Int = 1, loadKg: Double = 100, seed: UInt64 = 1,
    transport: Transport = .serial, noise: NoiseLevel = .typical,
    firmware: ClipFirmware = .original,
    rateHz: Double? = nil,
    grinder: Bool = false, paused: Bool = false, rackMoves: Bool = true,
    streamName: String = "stream.lbs"
  ) {
    self.exercise = exercise
    self.reps = reps
    self.sets = sets
    self.loadKg = loadKg
    self.seed = seed
    self.transport = transport
    self.noise = noise
    self.firmware = firmware
    self.rateHz = rateHz
    self.grinder = grinder
    self.paused = paused
    self.rackMoves = rackMoves
    self.streamName = streamName
  }
}
