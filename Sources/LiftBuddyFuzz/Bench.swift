import Foundation
import LiftBuddyCore

/// `--bench FILE`: throughput of the input stage on a real stream, in the
/// build it runs in (use a release build for numbers worth quoting).
///
/// The file is read into memory first, so that the figures are the CPU's,
/// not the disk's, and then handed over in pieces of `--chunk` bytes, as a
/// file or pipe read would (or a BLE notification, with `--chunk 20`). Each stage is timed `rounds` times and the best run is
/// kept: the others measure the machine's other tenants. Both thread CPU
/// time and wall time are shown.
enum Bench {
  /// A typical read(2) size: large enough that chunk boundaries (and the
  /// carry copy they cause) are as rare as in real replay.
  static let defaultChunkSize = 64 * 1024
  static let rounds = 5

  /// What a stage saw; printed, so that no stage's work can be optimised
  /// away, and compared across stages as a sanity check.
  struct Tally: Equatable {
    var lines = 0
    var readings = 0
    var rejected = 0
    var events = 0
    var checksum = 0.0
  }

  /// What can be measured; all of them unless one is named.
  enum Stage: String, CaseIterable {
    /// Framer and parser, as the daemon reads a clip.
    case live
    /// Stream reader and parser, as replay and `analyze` read a file.
    case replay
    /// Stream reader and the whole analyzer.
    case core

    var title: String {
      switch self {
      case .live: "framer + parser (live path)"
      case .replay: "stream reader + parser (replay path)"
      case .core: "stream reader + analyzer"
      }
    }
  }

  static func run(path: String, stages: [Stage], chunkSize: Int) -> Int32 {
    guard let data = FileManager.default.contents(atPath: path) else {
      return PlainMode.fail("liftbuddy-fuzz: cannot read \(path)\n")
    }
    let bytes = [UInt8](data)
    print("bench: \(path): \(bytes.count) bytes, chunks of \(chunkSize) bytes, best of \(rounds)")
    bytes.withUnsafeBytes { buffer in
      for stage in stages {
        measure(stage.title, buffer, chunkSize) { bytes, chunkSize in
          switch stage {
          case .live: framerAndParser(bytes, chunkSize)
          case .replay: readerAndParser(bytes, chunkSize)
          case .core: readerAndAnalyzer(bytes, chunkSize)
          }
        }
      }
    }
    return 0
  }

  private static func measure(
    _ name: String, _ bytes: UnsafeRawBufferPointer, _ chunkSize: Int,
    _ stage: (UnsafeRawBufferPointer, Int) -> Tally
  ) {
    var bestWall = Double.infinity
    var bestCPU = Double.infinity
    var tally = Tally()
    for _ in 0..<rounds {
      let wallStart = now(CLOCK_MONOTONIC)
      let cpuStart = now(CLOCK_THREAD_CPUTIME_ID)
      tally = stage(bytes, chunkSize)
      bestCPU = min(bestCPU, now(CLOCK_THREAD_CPUTIME_ID) - cpuStart)
      bestWall = min(bestWall, now(CLOCK_MONOTONIC) - wallStart)
    }
    let lines = Double(tally.lines)
    print(
      "\(name): \(tally.lines) lines (\(tally.readings) readings, \(tally.rejected) rejected, "
        + "\(tally.events) events): CPU \(format(bestCPU * 1000)) ms = "
        + "\(format(lines / bestCPU / 1e6)) M lines/s, \(format(Double(bytes.count) / bestCPU / 1e6)) MB/s; "
        + "wall \(format(bestWall * 1000)) ms = \(format(lines / bestWall / 1e6)) M lines/s "
        + "[checksum \(tally.checksum)]")
  }

  /// Seconds on `clock`. Thread CPU time is the figure to quote on a shared
  /// machine: wall time also counts the other tenants' turns on the core.
  private static func now(_ clock: clockid_t) -> Double {
    var time = timespec()
    clock_gettime(clock, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
  }

  private static func format(_ value: Double) -> String {
    String(Double(Int((value * 100).rounded())) / 100)
  }

  /// Calls `body` with `bytes` in pieces of `chunkSize` bytes.
  private static func inChunks(
    _ bytes: UnsafeRawBufferPointer, _ chunkSize: Int, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    var offset = 0
    while offset < bytes.count {
      let end = min(offset + chunkSize, bytes.count)
      body(UnsafeRawBufferPointer(rebasing: bytes[offset..<end]))
      offset = end
    }
  }

  private static func count(_ parsed: ParsedLine, into tally: inout Tally) {
    tally.lines += 1
    switch parsed {
    case .reading(.sonar(let centimetres, _)):
      tally.readings += 1
      tally.checksum += centimetres
    case .reading(.attitude(let pitch, _, _)):
      tally.readings += 1
      tally.checksum += pitch
    case .rejected:
      tally.rejected += 1
    }
  }

  private static func framerAndParser(_ bytes: UnsafeRawBufferPointer, _ chunkSize: Int) -> Tally {
    var framer = LineFramer()
    var tally = Tally()
    // Closure literals at each call, not one shared local function: a
    // shared one is boxed with dynamic exclusivity checks, which would be
    // measured here as the framer's cost.
    inChunks(bytes, chunkSize) {
      framer.append($0) { take($0, into: &tally) }
    }
    framer.finish { take($0, into: &tally) }
    return tally
  }

  private static func take(_ framed: FramedLine, into tally: inout Tally) {
    switch framed {
    case .line(let line): count(LineParser.parse(line), into: &tally)
    case .overlong:
      tally.lines += 1
      tally.rejected += 1
    }
  }

  private static func readerAndParser(_ bytes: UnsafeRawBufferPointer, _ chunkSize: Int) -> Tally {
    var reader = StreamReader()
    var tally = Tally()
    inChunks(bytes, chunkSize) {
      reader.append($0) { take($0, into: &tally) }
    }
    reader.finish { take($0, into: &tally) }
    return tally
  }

  private static func take(_ row: StreamRow, into tally: inout Tally) {
    switch row {
    case .header: break
    case .line(let t, let line):
      count(LineParser.parse(line), into: &tally)
      tally.checksum += t
    case .rejected:
      tally.lines += 1
      tally.rejected += 1
    }
  }

  /// The whole core as it stands: the analyzer parses the lines itself.
  private static func readerAndAnalyzer(_ bytes: UnsafeRawBufferPointer, _ chunkSize: Int) -> Tally
  {
    var reader = StreamReader()
    var analyzer = Analyzer(session: SessionInfo(source: "bench"))
    var events: [AnalyzerEvent] = []
    var tally = Tally()
    inChunks(bytes, chunkSize) {
      reader.append($0) { feed($0, to: &analyzer, events: &events, tally: &tally) }
    }
    reader.finish { feed($0, to: &analyzer, events: &events, tally: &tally) }
    analyzer.finish(into: &events)
    tally.events += events.count
    return tally
  }

  private static func feed(
    _ row: StreamRow, to analyzer: inout Analyzer, events: inout [AnalyzerEvent], tally: inout Tally
  ) {
    switch row {
    case .header: break
    case .line(let t, let line):
      tally.lines += 1
      analyzer.ingest(line: line, at: t, into: &events)
    case .rejected(let rejection):
      tally.lines += 1
      tally.rejected += 1
      analyzer.countRejected(rejection)
    }
    if !events.isEmpty {
      tally.events += events.count
      events.removeAll(keepingCapacity: true)
    }
  }
}
