import LiftBuddyCore

/// The varied sessions `evaluate --sweep` runs: for each seed and category,
/// a lifter, load, rep count and style drawn from the seed, so a sweep
/// covers fast and slow sets, grinders, paused reps, rack moves and the odd
/// multi-set session without anyone listing them.
public enum SweepScenario {
  public static let repsPerSet: ClosedRange<Int> = 1...8
  public static let grinderChance = 0.15
  public static let pausedChance = 0.2
  public static let rackMovesChance = 0.75
  /// Multi-set sessions are long (minutes of rest), so a few suffice.
  public static let multiSetChance = 0.1
  /// Half the streams imitate the repository firmware (device clock field).
  public static let liftbuddyFirmwareChance = 0.5
  /// Loads from 40 % to 100 % of the exercise's reference one-rep max.
  public static let intensity: ClosedRange<Double> = 0.4...1.0
  /// Plates come in 2.5 kg steps.
  public static let loadStepKg = 2.5

  /// `firmware` nil draws the clip program from the seed.
  public static func request(
    seed: UInt64, exercise: Exercise, transport: Transport, noise: NoiseLevel,
    firmware: ClipFirmware? = nil
  ) -> SimulationRequest {
    // Mixing the category into the draw keeps categories independent while
    // the trajectory generator itself still sees the plain seed.
    let category =
      UInt64(Exercise.allCases.firstIndex(of: exercise) ?? 0) << 8
      | UInt64(Transport.allCases.firstIndex(of: transport) ?? 0) << 4
      | UInt64(NoiseLevel.allCases.firstIndex(of: noise) ?? 0)
    var rng = SeededRandom(seed: seed, stream: 100 + category)
    let profile = ExerciseProfile.of(exercise)
    let load =
      (profile.referenceOneRepMaxKg * rng.uniform(intensity) / loadStepKg).rounded() * loadStepKg
    let reps = rng.integer(repsPerSet)
    let sets = rng.chance(multiSetChance) ? rng.integer(2...3) : 1
    // Drawn even when given, so that fixing it leaves every other draw alone.
    let drawnFirmware: ClipFirmware = rng.chance(liftbuddyFirmwareChance) ? .liftbuddy : .original
    let grinder = reps >= 3 && rng.chance(grinderChance)
    let paused = rng.chance(pausedChance)
    let rackMoves = rng.chance(rackMovesChance)
    return SimulationRequest(
      exercise: exercise, reps: reps, sets: sets, loadKg: load, seed: seed &* 1000 &+ category,
      transport: transport, noise: noise, firmware: firmware ?? drawnFirmware, rateHz: nil,
      grinder: grinder, paused: paused, rackMoves: rackMoves,
      streamName: "sweep-\(exercise.rawValue)-\(transport.rawValue)-\(noise.rawValue)-\(seed).lbs")
  }
}
