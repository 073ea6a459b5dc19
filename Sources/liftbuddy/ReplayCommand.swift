import ArgumentParser
import LiftBuddyCore
import LiftBuddyDaemon
import Logging

/// `liftbuddy replay FILE`: plays a recorded stream through the daemon's
/// pipeline at its recorded pace (or faster) and prints the events as they
/// happen; with `--to-pty`, plays it into a pseudo-terminal instead, so that
/// liftbuddyd (or anything that reads a serial port) can read it as a clip.
struct ReplayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Replay a recorded stream at its pace, printing events, or into a pseudo-terminal.",
    discussion: """
      Events are printed one per line: set starts, reps and status as text, lift reports as \
      their JSON line. With --to-pty the stream's lines are written, at pace, to a new \
      pseudo-terminal whose path is printed first; point liftbuddyd at it with \
      --source serial:PATH.
      """)

  @Argument(help: "A recorded stream (see docs/stream-format.md).")
  var file: String

  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "1 is the recording's pace, N is N times faster, max is as fast as possible.",
      valueName: "N|max"))
  var speed: String = "1"

  @Flag(help: "Start over at the end of the file.")
  var loop = false

  @Flag(
    name: .customLong("to-pty"),
    help: "Write the lines into a new pseudo-terminal instead of analysing them.")
  var toPty = false

  @Flag(help: "Also print live samples (at most 10 per second of stream time).")
  var samples = false

  func run() async throws {
    let pace: ReplaySpeed
    do { pace = try ReplaySpeed(parsing: speed) } catch {
      throw ValidationError("--speed: \(error.text)")
    }
    let source: ReplaySource
    do { source = try ReplaySource(path: file, speed: pace, loop: loop) } catch {
      throw ValidationError("cannot read \(file): \(error)")
    }
    if toPty {
      try await playIntoPseudoTerminal(source)
      return
    }
    let pipeline = Pipeline(
      source: source, exercise: source.hints.exercise, loadKg: source.hints.loadKg,
      sinks: [EventPrinter(showSamples: samples)],
      options: .init(
        sampleRateHz: samples && pace != .max ? 10 : nil,
        tick: pace == .max ? nil : .milliseconds(500)),
      logger: Logger(label: "liftbuddy-replay"))
    await pipeline.run()
  }

  private func playIntoPseudoTerminal(_ source: ReplaySource) async throws {
    let pty = try PseudoTerminal()
    EventPrinter().publish(
      .status(
        DaemonStatus(state: .connected, source: source.name, message: "pty \(pty.slavePath)", t: 0))
    )
    // The recording's rows, as the clip sent them: header and times off.
    var reader = StreamReader()
    for await event in source.events(clock: .startingNow()) {
      if case .status(.rewound) = event { reader = StreamReader() }
      guard case .recorded(let chunk) = event else { continue }
      var bytes: [UInt8] = []
      chunk.withUnsafeBytes {
        reader.append($0) { row in
          guard case .line(_, let line) = row else { return }
          bytes += line
          bytes.append(UInt8(ascii: "\n"))
        }
      }
      try pty.write(bytes)
    }
  }
}
