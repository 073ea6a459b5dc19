import ArgumentParser
import LiftBuddyCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `liftbuddy analyze FILE...`: the analyzer over recorded streams, as fast
/// as the CPU goes. One lift report per set, as JSON Lines, byte-identical
/// to what the daemon writes when it replays the same file.
struct AnalyzeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "analyze",
    abstract: "Analyse recorded streams: one lift report per set, as JSON Lines.",
    discussion: """
      Each FILE is a recorded stream (see docs/stream-format.md). Reports go to
      standard output; errors to standard error. The exit status is non-zero
      if any file could not be read.
      """)

  enum Format: String, ExpressibleByArgument, CaseIterable { case json, table }

  @Argument(help: "Recorded stream files (.lbs).")
  var files: [String]

  @Option(help: "Output: json (JSON Lines, one report per set) or table (for a person).")
  var format: Format = .json

  @OptionGroup var tuning: AnalyzerOptions

  @Flag(help: "Print throughput and counts to standard error.")
  var stats = false

  func run() throws {
    let configuration = try tuning.configuration()
    var failed = false
    var totalLines = 0
    var totalBytes = 0
    let started = monotonicSeconds()
    for path in files {
      let name = "replay:" + (path.split(separator: "/").last.map(String.init) ?? path)
      var analysis = RecordedStreamAnalysis(
        sourceName: name, configuration: configuration, exercise: tuning.exercise,
        loadKg: tuning.load)
      var events: [AnalyzerEvent] = []
      var printer = ReportPrinter(format: format)
      do {
        try FileChunks.read(path: path) { chunk in
          totalBytes += chunk.count
          analysis.append(chunk, into: &events)
          printer.print(events)
          events.removeAll(keepingCapacity: true)
        }
      } catch {
        FileChunks.printError("liftbuddy: \(path): \(error)")
        failed = true
        continue
      }
      analysis.finish(into: &events)
      printer.print(events)
      printer.finish(source: name, totals: analysis.totals)
      totalLines += analysis.totals.lines
    }
    if stats {
      let elapsed = monotonicSeconds() - started
      FileChunks.printError(
        "liftbuddy: \(totalLines) lines, \(totalBytes) bytes in \(elapsed) s: "
          + "\(Int(Double(totalLines) / max(elapsed, 1e-9))) lines/s")
    }
    if failed { throw ExitCode(1) }
  }

  private func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

/// Analyzer settings shared by the verbs that run the analyzer.
struct AnalyzerOptions: ParsableArguments {
  @Option(help: "Smoother: moving_average or local_quadratic.")
  var smoother: AnalyzerConfiguration.Smoother?

  @Option(help: "Smoothing window in seconds.")
  var window: Double?

  @Option(help: "Rest in seconds after which a set ends.")
  var rest: Double?

  @Option(
    help: "Exercise, overriding the stream's header (squat, bench_press, deadlift, overhead_press)."
  )
  var exercise: Exercise?

  @Option(help: "Load in kg, overriding the stream's header.")
  var load: Double?

  func configuration() throws -> AnalyzerConfiguration {
    var c = AnalyzerConfiguration()
    if let smoother { c.smoother = smoother }
    if let window {
      guard window.isFinite, window > 0.02, window < 2 else {
        throw ValidationError("--window must be between 0.02 and 2 seconds")
      }
      c.smoothingWindowS = window
    }
    if let rest {
      guard rest.isFinite, rest > 0 else { throw ValidationError("--rest must be positive") }
      c.setRestS = rest
    }
    if let load, !(load.isFinite && load >= 0) {
      throw ValidationError("--load must be a non-negative number of kilograms")
    }
    return c
  }
}

extension AnalyzerConfiguration.Smoother: ExpressibleByArgument {}
extension Exercise: ExpressibleByArgument {}
