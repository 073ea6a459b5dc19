import ArgumentParser
import Foundation
import LiftBuddyCore
import LiftBuddySimulator

/// `liftbuddy evaluate`: runs the analyzer over streams with known truth and
/// prints issue 8's measures. Streams come from the named scenarios of one
/// split (`--split tune|heldout`), from the original sweep (`--sweep`), or
/// from files with their truth beside them; `--baseline` runs the plain
/// NumPy/SciPy script on the same streams and prints its rows beside;
/// `--real DIR` checks rep counts on real recordings.
struct EvaluateCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "evaluate",
    abstract:
      "Score the analyzer against ground truth: scenario splits, a sweep, files, or real recordings.",
    discussion: """
      Tune on `--split tune` (scenarios and seeds below 5000); `--split heldout`
      (other scenarios, seeds from 5000) is for measuring only. Columns: see
      ScoreTable (Sources/LiftBuddySimulator/ScoreTable.swift).
      """)

  enum Grouping: String, ExpressibleByArgument, CaseIterable {
    case none, exercise, scenario, speed, noise, transport
  }

  @Argument(help: "Stream files (.lbs); each needs its .truth.json beside it.")
  var files: [String] = []
  @Option(help: "Scenario split to generate in memory: tune or heldout.")
  var split: Scenario.Split?
  @Option(help: "Scenarios of the split to run (comma-separated; default all of the split).")
  var scenario: String?
  @Flag(help: "Generate the original sweep: seeds × exercises × transports × noise levels.")
  var sweep = false
  @Option(
    help:
      "Seeds: N, A...B or A..<B (default: --split tune 1...8, heldout 5000...5007; --sweep 1...10)."
  )
  var seeds: String?
  @Option(help: "Noise levels for --sweep (comma-separated; default all).")
  var noise: String?
  @Option(help: "Transports for --sweep (comma-separated; default all).")
  var transport: String?
  @Option(help: "Exercises for --sweep (comma-separated; default all).")
  var exercise: String?
  @Option(help: "Smoother: moving_average or local_quadratic.")
  var smoother: String?
  @Option(help: "Smoothing window in seconds.")
  var window: Double?
  @Option(help: "Streams simulated and analysed at once (the machine is shared: default 1).")
  var jobs: Int = 1
  @Option(
    help: "Rows per group as well as TOTAL: none, exercise, scenario, speed, noise, transport.")
  var by: Grouping = .scenario
  @Flag(name: .customLong("per-stream"), help: "Also print one row per stream.")
  var perStream = false
  @Flag(
    help:
      "Also print each stream whose set or rep count is wrong, with the command that writes it.")
  var failures = false
  @Flag(
    name: .customLong("sensor-frame"),
    help:
      "Score against ROM and velocities as the sensor saw them (times the stream's speed-of-sound scale): the analyzer's own error, without the air's."
  )
  var sensorFrame = false
  @Option(help: "Baseline script to run on the same streams (scripts/baseline.py).")
  var baseline: String?
  @Option(help: "Python for --baseline (needs NumPy and SciPy).")
  var python: String = "python3"
  @Option(help: "Directory of real recordings (*.lbs) with a truth.json of rep counts per set.")
  var real: String?
  @Flag(help: "Exit with status 1 when the analyzer's TOTAL misses the targets.")
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
    guard split != nil || sweep || !files.isEmpty || real != nil else {
      throw ValidationError("give --split tune|heldout, --sweep, stream files, or --real DIR")
    }
    let clock = ContinuousClock()
    let began = clock.now
    var missed: [String] = []
    if split != nil || sweep || !files.isEmpty {
      let cases = try makeCases()
      let results = await Self.evaluate(
        cases, jobs: max(jobs, 1), configuration: configuration, sensorFrame: sensorFrame)
      let baselineScores = try baseline.map { try runBaseline(cases, results: results, script: $0) }
      printTable(cases: cases, scores: results, baseline: baselineScores)
      let targets = split != nil ? AccuracyTargets.issue8 : AccuracyTargets()
      missed = targets.misses(results.map(\.score).reduce(Score(), +))
      print(
        "analyzer: smoother=\(configuration.smoother.rawValue) window=\(configuration.smoothingWindowS)s; \(cases.count) streams in \(clock.now - began)"
      )
      print(
        missed.isEmpty
          ? "targets: all met" : "targets missed:\n  " + missed.joined(separator: "\n  "))
    }
    if let real {
      let realMisses = try checkReal(directory: real, configuration: configuration)
      if !realMisses.isEmpty {
        print("real recordings missed:\n  " + realMisses.joined(separator: "\n  "))
      }
      missed += realMisses
    }
    if check, !missed.isEmpty { throw ExitCode(1) }
  }

  // MARK: Streams

  /// One stream to score: generated (request) or read (bytes), its truth,
  /// and the groups it belongs to.
  struct Case: Sendable {
    var name: String
    var request: SimulationRequest?
    var file: String?
    var keys: [Grouping: String]
    /// The scenario seed (`simulate --scenario NAME --seed N`).
    var seed: UInt64? = nil
  }

  private func makeCases() throws -> [Case] {
    if let split {
      let names = scenario.map { $0.split(separator: ",").map(String.init) }
      let scenarios = try (names ?? Scenario.scenarios(in: split).map(\.rawValue)).map { name in
        guard let s = Scenario(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
          throw ValidationError("unknown scenario '\(name)' (see simulate --list-scenarios)")
        }
        guard s.split == split else {
          throw ValidationError("scenario '\(name)' is in the \(s.split.rawValue) split")
        }
        return s
      }
      let seedList = try seedRange(seeds ?? (split == .tune ? "1...8" : "5000...5007"))
      if let bad = seedList.first(where: { !Scenario.seed($0, isIn: split) }) {
        throw ValidationError(
          "seed \(bad) is not a \(split.rawValue) seed (held-out seeds are ≥ \(Scenario.heldOutSeeds.lowerBound))"
        )
      }
      return scenarios.flatMap { s in
        seedList.map { seed in
          let r = s.request(seed: seed)
          return Case(
            name: r.streamName, request: r, file: nil, keys: Self.keys(r, scenario: s.rawValue),
            seed: seed)
        }
      }
    }
    if sweep {
      let exercises: [Exercise] = try list(exercise, Exercise.allCases, "exercise")
      let transports: [Transport] = try list(transport, Transport.allCases, "transport")
      let noises: [NoiseLevel] = try list(noise, NoiseLevel.allCases, "noise level")
      var cases: [Case] = []
      for seed in try seedRange(seeds ?? "1...10") {
        for e in exercises {
          for t in transports {
            for n in noises {
              let r = SweepScenario.request(seed: seed, exercise: e, transport: t, noise: n)
              cases.append(
                Case(
                  name: r.streamName, request: r, file: nil, keys: Self.keys(r, scenario: "sweep")))
            }
          }
        }
      }
      return cases
    }
    return try files.map { file in
      let truthPath = TruthFile.path(forStream: file)
      guard FileManager.default.fileExists(atPath: truthPath) else {
        throw ValidationError("no truth beside \(file) (looked for \(truthPath))")
      }
      return Case(
        name: URL(fileURLWithPath: file).lastPathComponent, request: nil, file: file, keys: [:])
    }
  }

  static func keys(_ r: SimulationRequest, scenario: String) -> [Grouping: String] {
    [
      .exercise: r.exercise.rawValue, .scenario: scenario, .noise: r.noise.rawValue,
      .transport: r.transport.rawValue,
    ]
  }

  /// Mean-velocity class of a stream, by the median of its true reps.
  static func speedClass(_ truth: Truth) -> String {
    let velocities = truth.sets.flatMap(\.reps).map(\.meanVelocityMps)
    guard let median = Score.quantile(velocities, 0.5) else { return "no_reps" }
    switch median {
    case ..<0.5: return "slow<0.5"
    case ..<0.8: return "moderate<0.8"
    case ..<1.1: return "fast<1.1"
    default: return "very_fast"
    }
  }

  struct Result: Sendable {
    var score: Score
    var truth: Truth
    var bytes: [UInt8]
  }

  /// Simulates (or reads), analyses row by row and scores each case, `jobs`
  /// at a time; results come back in case order whatever the worker count,
  /// so the table is the same bytes with --jobs 1 or 8.
  private static func evaluate(
    _ cases: [Case], jobs: Int, configuration: AnalyzerConfiguration, sensorFrame: Bool
  ) async -> [Result] {
    await withTaskGroup(of: (Int, [Result]).self) { group in
      for worker in 0..<jobs {
        group.addTask {
          var results: [Result] = []
          for index in stride(from: worker, to: cases.count, by: jobs) {
            let c = cases[index]
            let bytes: [UInt8]
            var truth: Truth
            if let request = c.request {
              let stream = Simulator.run(request)
              bytes = stream.bytes
              truth = stream.truth
            } else {
              let file = c.file ?? ""
              bytes = (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))) ?? []
              let truthData = try? Data(
                contentsOf: URL(fileURLWithPath: TruthFile.path(forStream: file)))
              truth =
                truthData.flatMap { try? TruthFile.decode($0) }
                ?? Truth(
                  stream: c.name, seed: nil, transport: nil, noise: nil, sets: [], nonReps: [],
                  faults: nil)
            }
            if sensorFrame { truth = truth.inSensorFrame }
            let outcome = TimedAnalysis.run(
              bytes, sourceName: "replay:\(c.name)", configuration: configuration)
            results.append(
              Result(score: Scorer.score(outcome, truth: truth), truth: truth, bytes: bytes))
          }
          return (worker, results)
        }
      }
      var byWorker = [[Result]](repeating: [], count: jobs)
      for await (worker, results) in group { byWorker[worker] = results }
      return cases.indices.map { byWorker[$0 % jobs][$0 / jobs] }
    }
  }

  // MARK: Baseline

  /// Writes the streams to a temporary directory and runs the script once
  /// over all of them; its JSON Lines carry each set's `file`.
  private func runBaseline(_ cases: [Case], results: [Result], script: String) throws -> [Score] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("liftbuddy-evaluate-\(ProcessInfo.processInfo.processIdentifier)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for (c, r) in zip(cases, results) {
      let url = directory.appendingPathComponent(c.name)
      try Data(r.bytes).write(to: url)
      paths.append(url.path)
    }
    let found = try BaselineRunner.run(python: python, script: script, files: paths)
    return zip(cases, results).map { c, r in
      Scorer.score(sets: found[c.name] ?? [], truth: r.truth)
    }
  }

  // MARK: Output

  private func printTable(cases: [Case], scores results: [Result], baseline: [Score]?) {
    var header = "evaluate: "
    if let split {
      header +=
        "split=\(split.rawValue), \(Set(cases.compactMap { $0.keys[.scenario] }).count) scenarios, "
    }
    print(header + "\(cases.count) streams")
    var rows: [(label: String, score: Score)] = []
    var reruns: [String] = []
    let tools: [(String, [Score])] =
      [("liftbuddy", results.map(\.score))] + (baseline.map { [("baseline", $0)] } ?? [])
    if by != .none {
      var groups: [String: [Int]] = [:]
      for (i, c) in cases.enumerated() {
        let truth = results[i].truth
        let key: String
        switch by {
        case .speed: key = Self.speedClass(truth)
        case .exercise: key = c.keys[by] ?? truth.sets.first?.exercise ?? "none"
        case .scenario: key = c.keys[by] ?? truth.scenario ?? "file"
        case .noise: key = c.keys[by] ?? truth.noise ?? "hand-made"
        case .transport: key = c.keys[by] ?? truth.transport ?? "hand-made"
        case .none: key = "-"
        }
        groups["\(by.rawValue)=\(key)", default: []].append(i)
      }
      for key in groups.keys.sorted() {
        for (tool, scores) in tools {
          rows.append(("\(tool) \(key)", groups[key]!.map { scores[$0] }.reduce(Score(), +)))
        }
      }
    }
    if perStream || failures {
      for (i, c) in cases.enumerated() {
        let s = results[i].score
        let wrong =
          s.exactSets != s.sets || s.extraSets > 0 || s.extraReps > 0 || s.missedReps > 0
        guard perStream || wrong else { continue }
        rows.append(("liftbuddy \(c.name)", s))
        if failures, wrong, let r = c.request {
          if let scenario = r.scenario, let seed = c.seed {
            reruns.append(
              "liftbuddy simulate --scenario \(scenario) --seed \(seed) --output \(r.streamName)")
          } else {
            reruns.append(Self.simulateCommand(r))
          }
        }
      }
    }
    for (tool, scores) in tools { rows.append(("\(tool) TOTAL", scores.reduce(Score(), +))) }
    print(ScoreTable.render(rows), terminator: "")
    if !reruns.isEmpty {
      print("to reproduce a failing stream (then `liftbuddy evaluate FILE`):")
      for line in reruns { print("  " + line) }
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

  // MARK: Real recordings

  /// Rep counts on real recordings: each file as recorded and with its
  /// `# exercise:` header removed (the analyzer must not need it), beside
  /// the baseline script's counts on the same file.
  /// Returns what missed issue 8's target there: every set exactly right,
  /// with and without the header.
  private func checkReal(directory: String, configuration: AnalyzerConfiguration) throws
    -> [String]
  {
    let dir = URL(fileURLWithPath: directory)
    let truthURL = dir.appendingPathComponent("truth.json")
    guard FileManager.default.fileExists(atPath: truthURL.path) else {
      print("real: no \(truthURL.path); skipped")
      return []
    }
    let truth = try RealTruth.read(Data(contentsOf: truthURL))
    var rows: [[String]] = [
      ["tool", "file", "header", "found", "truth", "exact", "+reps", "-reps"]
    ]
    var totals: [String: RepCountCheck.Result] = [:]
    var order: [String] = []
    func add(_ tool: String, _ file: String, _ variant: String, _ found: [Int], _ expected: [Int]) {
      let r = RepCountCheck.compare(found: found, truth: expected)
      let key = "\(tool) \(variant)"
      if totals[key] == nil { order.append(key) }
      totals[key, default: .init()] = totals[key, default: .init()] + r
      rows.append([
        tool, file, variant, found.map(String.init).joined(separator: ","),
        expected.map(String.init).joined(separator: ","), "\(r.exactSets)/\(r.trueSets)",
        "\(r.inventedReps)", "\(r.missedReps)",
      ])
    }
    var baselinePaths: [String] = []
    /// Mean velocities per set, as recorded (with the header).
    var velocities: [String: [[Double]]] = [:]
    for (file, expected) in truth.sorted(by: { $0.key < $1.key }) {
      let url = dir.appendingPathComponent(file)
      guard let bytes = try? [UInt8](Data(contentsOf: url)) else {
        print("real: \(file) listed in truth.json but not readable; skipped")
        continue
      }
      baselinePaths.append(url.path)
      for (variant, stream) in [("with", bytes), ("without", RealTruth.withoutExercise(bytes))] {
        let reports = RecordedStreamAnalysis.reports(
          for: stream, sourceName: "replay:\(file)", configuration: configuration)
        add("liftbuddy", file, variant, reports.map(\.reps.count), expected)
        if variant == "with" {
          velocities[file] = reports.map { $0.reps.map(\.meanVelocityMps) }
        }
      }
    }
    if let baseline {
      let found = try BaselineRunner.run(python: python, script: baseline, files: baselinePaths)
      for path in baselinePaths {
        let file = URL(fileURLWithPath: path).lastPathComponent
        add("baseline", file, "-", (found[file] ?? []).map(\.reps.count), truth[file] ?? [])
      }
    }
    for key in order {
      let r = totals[key]!
      let parts = key.split(separator: " ")
      rows.append([
        String(parts[0]), "TOTAL", String(parts[1]), "\(r.foundSets) sets", "\(r.trueSets) sets",
        "\(r.exactSets)/\(r.trueSets)", "\(r.inventedReps)", "\(r.missedReps)",
      ])
    }
    print("real recordings in \(directory): rep counts per set")
    print(ScoreTable.align(rows), terminator: "")
    print(Self.agreement(velocities, truth: truth))
    return order.filter { $0.hasPrefix("liftbuddy") }.compactMap { key in
      let r = totals[key]!
      let exact = r.exactSets == r.trueSets && r.foundSets == r.trueSets
      return exact
        ? nil
        : "\(key) header: \(r.exactSets) of \(r.trueSets) sets exact, \(r.inventedReps) reps invented, \(r.missedReps) missed"
    }
  }

  /// The recordings have no velocity reference, but two sensors on one bar
  /// (the files of one session) must agree: mean |ΔMV| over the reps of the
  /// sets both files counted exactly, paired in order.
  static func agreement(_ velocities: [String: [[Double]]], truth: [String: [Int]]) -> String {
    let files = velocities.keys.sorted()
    var lines: [String] = []
    for (i, a) in files.enumerated() {
      for b in files[(i + 1)...] where truth[a] == truth[b] {
        let expected = truth[a] ?? []
        let va = velocities[a] ?? []
        let vb = velocities[b] ?? []
        var diffs: [Double] = []
        if va.count == expected.count, vb.count == expected.count {
          for (k, n) in expected.enumerated() where va[k].count == n && vb[k].count == n {
            diffs += zip(va[k], vb[k]).map { $0 - $1 }
          }
        }
        if diffs.isEmpty {
          lines.append(
            "\(a) vs \(b): no set counted exactly in both, no mean velocities to compare")
        } else {
          let mae = diffs.map(abs).reduce(0, +) / Double(diffs.count)
          let bias = diffs.reduce(0, +) / Double(diffs.count)
          lines.append(
            "\(a) vs \(b): mean |ΔMV| \(ScoreTable.decimal(mae, 3)) m/s (bias \(ScoreTable.decimal(bias, 3))) over \(diffs.count) reps of sets counted exactly in both"
          )
        }
      }
    }
    return lines.joined(separator: "\n")
  }

  // MARK: Arguments

  private func seedRange(_ text: String) throws -> [UInt64] {
    let text = text.trimmingCharacters(in: .whitespaces)
    for (separator, inclusive) in [("...", true), ("..<", false), ("..", true), ("-", true)] {
      let parts = text.components(separatedBy: separator)
      if parts.count == 2, let a = UInt64(parts[0]), let b = UInt64(parts[1]) {
        let upper = inclusive ? b : b &- 1
        guard a <= upper else { throw ValidationError("empty seed range '\(text)'") }
        return Array(a...upper)
      }
    }
    if text.contains(",") {
      return try text.split(separator: ",").map {
        guard let n = UInt64($0.trimmingCharacters(in: .whitespaces)) else {
          throw ValidationError("bad --seeds '\(text)'")
        }
        return n
      }
    }
    guard let single = UInt64(text) else { throw ValidationError("bad --seeds '\(text)'") }
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

extension Scenario.Split: ExpressibleByArgument {}
