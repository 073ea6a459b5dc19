import ArgumentParser
import Foundation
import LiftBuddyCore
import LiftBuddySimulator

/// `liftbuddy simulate`: writes one simulated stream and its truth beside it.
struct SimulateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "simulate",
    abstract: "Write a deterministic simulated stream (.lbs) and its ground truth (.truth.json).")

  @Option(help: "squat, bench_press, deadlift or overhead_press.")
  var exercise: String = "squat"
  @Option(help: "Reps per set.")
  var reps: Int = 5
  @Option(help: "Sets in the session (60–180 s rest between them).")
  var sets: Int = 1
  @Option(help: "Load in kg (sets the first rep's velocity).")
  var load: Double = 100
  @Option(help: "Seed: the same arguments always give the same bytes.")
  var seed: UInt64 = 1
  @Option(help: "serial, ble or raw.")
  var transport: String = "serial"
  @Option(help: "clean, typical or dirty.")
  var noise: String = "typical"
  @Option(
    help: "Clip program: original (plain lines) or liftbuddy (Firmware/: :<millis> field, 20 Hz).")
  var firmware: String = "original"
  @Option(
    name: .customLong("rate-hz"),
    help: "Nominal sonar rate (default: original clip drawn from the seed, 15–40; liftbuddy 20).")
  var rateHz: Double?
  @Flag(help: "The last rep of each set is a grinder with a sticking point.")
  var grinder = false
  @Flag(help: "Pause at the bottom of every rep instead of bouncing.")
  var paused = false
  @Flag(
    name: .customLong("no-rack-moves"),
    help: "Leave out unrack, walk-out, re-rack and adjustments.")
  var noRackMoves = false
  @Option(
    help:
      "A named scenario (a whole session; --seed picks the lifter, exercise, transport and noise; the options above are then ignored)."
  )
  var scenario: String?
  @Flag(
    name: .customLong("list-scenarios"), help: "List the scenarios, their split and what they do.")
  var listScenarios = false
  @Option(help: "Stream file to write; the truth goes beside it (.lbs → .truth.json).")
  var output: String?

  func validate() throws {
    if listScenarios { return }
    guard output != nil else { throw ValidationError("--output is required") }
    if let scenario {
      guard let s = Scenario(rawValue: scenario) else {
        throw ValidationError("unknown scenario '\(scenario)' (see --list-scenarios)")
      }
      _ = s
      return
    }
    guard Exercise(rawValue: exercise) != nil else {
      throw ValidationError("unknown exercise '\(exercise)'")
    }
    guard Transport(rawValue: transport) != nil else {
      throw ValidationError("unknown transport '\(transport)'")
    }
    guard ClipFirmware(rawValue: firmware) != nil else {
      throw ValidationError("unknown firmware '\(firmware)'")
    }
    guard NoiseLevel(rawValue: noise) != nil else {
      throw ValidationError("unknown noise level '\(noise)'")
    }
    guard reps >= 1, sets >= 1 else {
      throw ValidationError("--reps and --sets must be at least 1")
    }
    guard load >= 0 else { throw ValidationError("--load must not be negative") }
    if let rateHz, !(rateHz > 0 && rateHz <= 200) {
      throw ValidationError("--rate-hz must be in (0, 200]")
    }
  }

  func run() async throws {
    if listScenarios {
      for split in Scenario.Split.allCases {
        let seeds =
          split == .tune
          ? "seeds < \(Scenario.heldOutSeeds.lowerBound)"
          : "seeds ≥ \(Scenario.heldOutSeeds.lowerBound)"
        print("\(split.rawValue) (\(seeds)):")
        for s in Scenario.scenarios(in: split) {
          print("  \(s.rawValue.padding(toLength: 18, withPad: " ", startingAt: 0)) \(s.summary)")
        }
      }
      return
    }
    guard let output else { return }
    if let name = scenario, let s = Scenario(rawValue: name) {
      var request = s.request(seed: seed)
      request.streamName = URL(fileURLWithPath: output).lastPathComponent
      try write(Simulator.run(request), to: output)
      return
    }
    let request = SimulationRequest(
      exercise: Exercise(rawValue: exercise)!, reps: reps, sets: sets, loadKg: load, seed: seed,
      transport: Transport(rawValue: transport)!, noise: NoiseLevel(rawValue: noise)!,
      firmware: ClipFirmware(rawValue: firmware)!,
      rateHz: rateHz,
      grinder: grinder, paused: paused, rackMoves: !noRackMoves,
      streamName: URL(fileURLWithPath: output).lastPathComponent)
    try write(Simulator.run(request), to: output)
  }

  private func write(_ stream: SimulatedStream, to output: String) throws {
    try Data(stream.bytes).write(to: URL(fileURLWithPath: output))
    try TruthFile.encode(stream.truth).write(
      to: URL(fileURLWithPath: TruthFile.path(forStream: output)))
  }
}
