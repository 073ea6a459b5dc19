import ArgumentParser
import Foundation
import LiftBuddyCore
import LiftBuddySimulator

/// `liftbuddy evaluate`: runs the analyzer over streams with known truth and
/// prints how close it came. With files, each file's truth beside it; with
/// `--sweep`, streams generated in memory across seeds and every category:
/// the tuning loop for the analyzer's settings.
struct EvaluateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract: "Score the analyzer against ground truth (files, or an in-memory --sweep).")

  @Argument(help: "Stream files (.lbs); each needs its .truth.json beside it.")
  var files: [String] = []
  @Flag(help: "Generate streams in memory across seeds × exercises × transports × noise levels.")
  var sweep = false
  @Option(help: "Seeds for --sweep: N, A...B or A..<B.")
  var seeds: String = "1...10"
  @Option(help: "Noise levels for --sweep (comma-separated; default all).")
  var noise: String?
  @Option(help: "Transports for --sweep (comma-separated; default all).")
  var transport: String?
  @Option(help: "Exercises for --sweep (comma-separated; default all).")
  var exercise: String?
  @Option(
    help:
      "Clip programs for --sweep: original, liftbuddy (comma-separated; default drawn per seed).")
  var firmware: String?
  @Option(help: "Smoother: moving_average or local_quadratic.")
  var smoother: String?
  @Option(help: "Smoothing window in seconds.")
  var window: Double?
  @Option(
    help: "Streams simulated and analysed at once in --sweep (the machine is shared: default 1).")
  var jobs: Int = 1
  @Flag(name: .customLong("per-stream"), help: "Also print one row per stream.")
  var perStream = false
  @Flag(
    help:
      "Also print a row for each stream whose set or rep count is wrong (with its seed, to rerun it)."
  )
  var failures = false
  @Flag(help: "Exit with status 1 when the total misses the accuracy targets.")
  var check = false

  func run() async throws {
    var configuration = AnalyzerConfiguration()
    if let smoother {
      guard let s = AnalyzerConfiguration.Smoother(rawValue: smoother) else {
        throw ValidationError("unknown smoother '\(smoother)'")
      }
      configuration.smoother = s
    }
    if let window {
      guard window > 0 else { throw ValidationError("--window must be positive") }
      configuration.smoothingWindowS = window
    }
    guard sweep || !files.isEmpty else { throw ValidationError("give stream files, or --sweep") }

    var rows: [(label: String, score: Score)] = []
    var categories: [String: Score] = [:]
    var total = Score()
    var reruns: [String] = []
    let clock = ContinuousClock()
    let began = clock.now

    func add(_ score: Score, label: String, keys: [String]) {
      total = total + score
      for key in keys {
        categories[key, default: Score()] = categories[key, default: Score()] + score
      }
      let countWrong =
        score.exactSets != score.sets || score.extraSets > 0 || score.extraReps > 0
        || score.missedReps > 0
      if perStream || (failures && countWrong) { rows.append((label, score)) }
    }

    if sweep {
      let exercises: [Exercise] = try list(exercise, Exercise.allCases, "exercise")
      let transports: [Transport] = try list(transport, Transport.allCases, "transport")
      let noises: [NoiseLevel] = try list(noise, NoiseLevel.allCases, "noise level")
      let firmwares: [ClipFirmware?] =
        firmware == nil ? [nil] : try list(firmware, ClipFirmware.allCases, "firmware")
      var requests: [SimulationRequest] = []
      for seed in try seedRange() {
        for e in exercises {
          for t in transports {
            for n in noises {
              for f in firmwares {
                requests.append(
                  SweepScenario.request(
                    seed: seed, exercise: e, transport: t, noise: n, firmware: f))
              }
            }
          }
        }
      }
      // Scores are summed in request order whatever the worker count, so
      // the table is the same bytes with --jobs 1 or 8.
      let scores = await Self.scoreInParallel(
        requests, jobs: max(jobs, 1), configuration: configuration)
      for (request, score) in zip(requests, scores) {
        let wrong =
          score.exactSets != score.sets || score.extraSets > 0 || score.extraReps > 0
          || score.missedReps > 0
        if failures, wrong { reruns.append(Self.simulateCommand(request)) }
        add(
          score, label: request.streamName,
          keys: [
            "exercise=\(request.exercise.rawValue)", "transport=\(request.transport.rawValue)",
            "noise=\(request.noise.rawValue)", "firmware=\(request.firmware.rawValue)",
          ])
      }
    } else {
      for file in files {
        let url = URL(fileURLWithPath: file)
        let bytes = [UInt8](try Data(contentsOf: url))
        let truthPath = TruthFile.path(forStream: file)
        guard FileManager.default.fileExists(atPath: truthPath) else {
          throw ValidationError("no truth beside \(file) (looked for \(truthPath))")
        }
        let truth = try TruthFile.decode(Data(contentsOf: URL(fileURLWithPath: truthPath)))
        let reports = RecordedStreamAnalysis.reports(
          for: bytes, sourceName: "replay:\(url.lastPathComponent)", configuration: configuration)
        add(
          Scorer.score(reports: reports, truth: truth), label: url.lastPathComponent,
          keys: [
            "exercise=\(truth.sets.first?.exercise ?? "none")",
            "noise=\(truth.noise ?? "hand-made")",
            "transport=\(truth.transport ?? "hand-made")",
            "firmware=\(truth.firmware ?? "hand-made")",
          ])
      }
    }

    rows += categories.keys.sorted().map { ($0, categories[$0]!) }
    rows.append(("TOTAL", total))
    print(ScoreTable.render(rows), terminator: "")
    if !reruns.isEmpty {
      print("to reproduce a failing stream (then `liftbuddy evaluate FILE`):")
      for line in reruns { print("  " + line) }
    }
    let elapsed = clock.now - began
    print(
      "analyzer: smoother=\(configuration.smoother.rawValue) window=\(configuration.smoothingWindowS)s; \(total.streams) streams in \(elapsed)"
    )
    let misses = AccuracyTargets().misses(total)
    print(
      misses.isEmpty ? "targets: all met" : "targets missed:\n  " + misses.joined(separator: "\n  ")
    )
    if check, !misses.isEmpty { throw ExitCode(1) }
  }

  /// Simulates, analyses and scores each request, `jobs` at a time.
  private static func scoreInParallel(
    _ requests: [SimulationRequest], jobs: Int, configuration: AnalyzerConfiguration
  ) async -> [Score] {
    await withTaskGroup(of: (Int, [Score]).self) { group in
      for worker in 0..<jobs {
        group.addTask {
          var scores: [Score] = []
          for index in stride(from: worker, to: requests.count, by: jobs) {
            let request = requests[index]
            let stream = Simulator.run(request)
            let reports = RecordedStreamAnalysis.reports(
              for: stream.bytes, sourceName: "replay:\(request.streamName)",
              configuration: configuration)
            scores.append(Scorer.score(reports: reports, truth: stream.truth))
          }
          return (worker, scores)
        }
      }
      var byWorker = [[Score]](repeating: [], count: jobs)
      for await (worker, scores) in group { byWorker[worker] = scores }
      return requests.indices.map { byWorker[$0 % jobs][$0 / jobs] }
    }
  }

  /// The `liftbuddy simulate` call that writes the same stream and truth.
  static func simulateCommand(_ r: SimulationRequest) -> String {
    var words = [
      "liftbuddy simulate", "--exercise \(r.exercise.rawValue)", "--reps \(r.reps)",
      "--sets \(r.sets)",
      "--load \(r.loadKg)", "--seed \(r.seed)", "--transport \(r.transport.rawValue)",
      "--noise \(r.noise.rawValue)", "--firmware \(r.firmware.rawValue)",
    ]
    if let rate = r.rateHz { words.append("--rate-hz \(rate)") }
    if r.grinder { words.append("--grinder") }
    if r.paused { words.append("--paused") }
    if !r.rackMoves { words.append("--no-rack-moves") }
    words.append("--output \(r.streamName)")
    return words.joined(separator: " ")
  }

  private func seedRange() throws -> [UInt64] {
    let text = seeds.trimmingCharacters(in: .whitespaces)
    for (separator, inclusive) in [("...", true), ("..<", false), ("..", true), ("-", true)] {
      let parts = text.components(separatedBy: separator)
      if parts.count == 2, let a = UInt64(parts[0]), let b = UInt64(parts[1]) {
        let upper = inclusive ? b : b &- 1
        guard a <= upper else { throw ValidationError("empty seed range '\(seeds)'") }
        return Array(a...upper)
      }
    }
    guard let single = UInt64(text) else { throw ValidationError("bad --seeds '\(seeds)'") }
    return [single]
  }

  private func list<T: RawRepresentable>(_ text: String?, _ all: [T], _ what: String) throws -> [T]
  where T.RawValue == String {
    guard let text else { return all }
    return try text.split(separator: ",").map { name in
      guard let value = T(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
        throw ValidationError("unknown \(what) '\(name)'")
      }
      return value
    }
  }
}
