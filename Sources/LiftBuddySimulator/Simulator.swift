/// A simulated recording and what really happened in it.
public struct SimulatedStream: Sendable {
  /// The `.lbs` file's bytes.
  public var bytes: [UInt8]
  public var truth: Truth
  /// The nominal sonar rate written in the header.
  public var rateHz: Double
}

/// The deterministic stream simulator: the bar's true trajectory, then the
/// sensors, then the transport. The same request always gives the same
/// bytes and the same truth, on any machine.
///
/// The stages, each in its own type:
/// - `SessionPlanner` lays out the session as `VelocityPulse`s (continuous
///   velocity, so turnarounds are well defined) in a `BarTrajectory`: idle,
///   rack moves, reps (eccentric- or concentric-first, bounce or pause,
///   fatigue, grinder), rests between sets.
/// - `ImuModel` and `SonarModel` turn the true attitude and height into
///   printed readings with noise, rounding and faults (`NoiseLevel`);
///   `ClipEmitter` runs the clip's loop on a drifting crystal in one of the
///   `ClipFirmware` variants and orders the lines as they leave the clip.
/// - `TransportModel` gives each line its receive time (serial latency, BLE
///   connection events and stalls, or none for a raw capture), and
///   `StreamWriter` writes the contract's file.
/// - `TruthBuilder` measures every rep on the noise-free trajectory, on the
///   clock the stream's reader will use (`StreamClock`).
///
/// Named scenarios (`Scenario`, `liftbuddy simulate --scenario`) add a
/// `SessionStyle`: the scenario planner (`SessionPlanner+Styled`) then lays
/// out whole sessions with what lifters do around their sets (floor to rack,
/// cleans, unracks, re-grips, failed reps, plates, carries), and
/// `SensorArtifacts` what only the sensor sees (clip handling, no-echo
/// stretches, the speed of sound).
///
/// Tuning loop: `liftbuddy evaluate --split tune` (scenarios and seeds the
/// analyzer may be tuned on; `--split heldout` only measures), or the
/// original `--sweep` (`SweepScenario`); `TimedAnalysis` runs the analyzer
/// row by row for rep-event latency, `Scorer` compares reports with truth,
/// `ScoreTable` prints.
public enum Simulator {
  /// Sonar rates of HC-SR04 clips in the wild: slower ones wait out echoes
  /// from 4 m, faster ones stop listening early.
  public static let rateHz: ClosedRange<Int> = 15...40

  public static func run(_ request: SimulationRequest) -> SimulatedStream {
    // Each aspect has its own generator so that, say, a new transport rule
    // leaves the trajectory of every seed untouched.
    var planner = SessionPlanner(request: request)
    let plan = planner.plan()
    var attitudeRng = SeededRandom(seed: request.seed, stream: 2)
    var sensorRng = SeededRandom(seed: request.seed, stream: 3)
    var transportRng = SeededRandom(seed: request.seed, stream: 4)
    var clipRng = SeededRandom(seed: request.seed, stream: 5)

    let drawnRate = Double(clipRng.integer(rateHz))
    let rate =
      request.rateHz ?? (request.firmware == .liftbuddy ? ClipFirmware.liftbuddyRateHz : drawnRate)
    let imu = ImuModel(plan: plan, firmware: request.firmware, rng: &attitudeRng)
    var log = FaultLog()
    let raw = request.transport == .raw
    var sonar = SonarModel(
      noise: request.noise, firmware: request.firmware, allowsMissingLines: !raw,
      scale: plan.sensor.speedOfSoundScale, sigmaCm: plan.sensor.sonarNoiseCm, rng: &sensorRng)
    // A raw capture is timed by counting lines at the nominal rate, so only
    // a clip on a timer grid gives one whose truth is physical.
    var clip = ClipEmitter(
      firmware: request.firmware, nominalRateHz: rate, timerGridOnly: raw, rng: &clipRng)
    let lines = clip.emit(
      plan: plan, sonar: &sonar, imu: imu, noise: request.noise,
      avoidSonarGarbage: request.transport == .raw,
      rng: &sensorRng, log: &log)
    let times = TransportModel.receiveTimes(
      for: lines, transport: request.transport, noise: request.noise, durationS: plan.durationS,
      rng: &transportRng, log: &log)
    let bytes = StreamWriter.write(
      header: .init(
        exercise: request.exercise.rawValue, loadKg: request.loadKg, transport: request.transport,
        rateHz: rate,
        seed: request.seed),
      lines: lines, receiveTimes: times)

    let clock = StreamClock(
      sonarTimes: request.transport == .raw ? clip.sonarTimes : nil, nominalRateHz: rate)
    let builder = TruthBuilder(trajectory: plan.trajectory, imu: imu, clock: clock)
    var truth = Truth(
      stream: request.streamName, seed: request.seed, transport: request.transport.rawValue,
      noise: request.noise.rawValue, firmware: request.firmware.rawValue,
      sets: plan.sets.map { builder.set($0, exercise: request.exercise.rawValue) },
      nonReps: plan.nonReps.map {
        NonRepPlan(
          kind: $0.kind, startS: FixedDecimal.round(clock.map($0.startS), 3),
          endS: FixedDecimal.round(clock.map($0.endS), 3))
      }, faults: log)
    truth.scenario = request.scenario
    if plan.sensor.speedOfSoundScale != 1 {
      truth.speedOfSoundScale = FixedDecimal.round(plan.sensor.speedOfSoundScale, 4)
    }
    return SimulatedStream(bytes: bytes, truth: truth, rateHz: rate)
  }
}
