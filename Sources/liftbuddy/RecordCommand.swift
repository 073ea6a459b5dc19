import ArgumentParser
import LiftBuddyCore
import LiftBuddyDaemon
import Logging
import UnixSignals

/// `liftbuddy record`: records a live clip to a file in the recorded-stream
/// format, through the daemon's pipeline (so sets and reps are printed as
/// they happen), until `--duration` has passed or Ctrl-C.
struct RecordCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a live clip to a recorded-stream file.",
    discussion: """
      Every line the clip sends is written with its receive time, in seconds since recording \
      started, after a header naming the source, the start time and, if given, the exercise and \
      load. Stops after --duration seconds, or on Ctrl-C / SIGTERM; the file is complete either way.
      """)

  @Option(
    help: ArgumentHelp("serial:/dev/ttyUSB0, serial:auto or ble:ADDRESS.", valueName: "source"))
  var source: String

  @Option(help: ArgumentHelp("File to write (replaced if it exists).", valueName: "file"))
  var output: String

  @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
  var duration: Double?

  @Option(help: ArgumentHelp("Exercise to note in the header.", valueName: "name"))
  var exercise: String?

  @Option(help: ArgumentHelp("Load in kg to note in the header.", valueName: "kg"))
  var load: String?

  @Option(help: ArgumentHelp("Serial baud rate.", valueName: "N"))
  var baud: String?

  func run() async throws {
    var configuration = DaemonConfiguration()
    do {
      try configuration.set("source", to: source, origin: "--source")
      if let exercise { try configuration.set("exercise", to: exercise, origin: "--exercise") }
      if let load { try configuration.set("load_kg", to: load, origin: "--load") }
      if let baud { try configuration.set("baud", to: baud, origin: "--baud") }
    } catch {
      throw ValidationError("\(error)")
    }
    if let duration, !(duration > 0) {
      throw ValidationError("--duration must be a positive number of seconds")
    }
    let clip = try SourceFactory.make(configuration.source!, configuration: configuration)
    let logger = Logger(label: "liftbuddy-record")
    let recorder: StreamRecorder
    do {
      recorder = try StreamRecorder(
        path: output, source: clip.name, startedAtUnix: SourceClock.startingNow().wallClockOrigin,
        exercise: configuration.exercise, loadKg: configuration.loadKg, logger: logger)
    } catch {
      throw ValidationError("cannot record to \(output): \(error)")
    }
    let pipeline = Pipeline(
      source: clip, configuration: configuration.analyzer, exercise: configuration.exercise,
      loadKg: configuration.loadKg, sinks: [EventPrinter()],
      options: .init(sampleRateHz: nil, recorder: recorder), logger: logger)

    await withTaskGroup(of: Void.self) { group in
      group.addTask { await pipeline.run() }
      group.addTask {
        let stop = await Self.stopSignals()
        if let duration {
          let timer = Task { try? await Task.sleep(for: .seconds(duration)) }
          await withTaskGroup(of: Void.self) { inner in
            inner.addTask { await timer.value }
            inner.addTask { for await _ in stop { break } }
            await inner.next()
            inner.cancelAll()
            timer.cancel()
          }
        } else {
          for await _ in stop { break }
        }
      }
      // Whichever ends first (a stop, or a replay source running out)
      // ends the other; the pipeline then closes the file.
      await group.next()
      group.cancelAll()
    }
    await recorder.close()
  }

  /// SIGINT and SIGTERM as one sequence.
  private static func stopSignals() async -> some AsyncSequence<UnixSignal, Never> {
    await UnixSignalsSequence(trapping: .sigint, .sigterm)
  }
}
