import Foundation
import LiftBuddyCore
import Testing

@testable import LiftBuddyDaemon

/// The drivers against the real OS: a pseudo-terminal for the serial port,
/// files for replay.
@Suite(.serialized) struct SourceTests {
  /// Collects a source's events from a background task.
  actor Collector {
    var events: [SourceEvent] = []
    func add(_ e: SourceEvent) { events.append(e) }
    var bytes: [UInt8] {
      var all: [UInt8] = []
      for case .bytes(let b, _) in events { all += b }
      return all
    }
    var statuses: [SourceStatus] {
      events.compactMap { if case .status(let s) = $0 { s } else { nil } }
    }
  }

  @Test func serialSourceReadsAPseudoTerminalAndReportsItsLoss() async throws {
    let pty = try PseudoTerminal()
    let source = SerialSource(path: pty.slavePath, backoff: Backoff(initial: 0.1, maximum: 0.2))
    #expect(source.name == "serial:\(pty.slavePath)")
    let collector = Collector()
    let clock = SourceClock.startingNow()
    let task = Task {
      for await e in source.events(clock: clock) { await collector.add(e) }
    }
    // A bound, not a target: the whole suite runs in parallel on two
    // shared cores, where a thread's start has taken over 3 s, and every
    // test in the suite's first seconds has waited 14 s and, with the
    // core's CPU-bound suites holding both threads, 31 s (2026-12-03,
    // twice in a row on a loaded machine).
    #expect(
      await waitUntil(timeout: 120) {
        await collector.statuses.contains(.connected(detail: pty.slavePath))
      })
    let written = clock.now()
    try pty.write(Array("s:52\na:1:0\n".utf8))
    #expect(await waitUntil(timeout: 10) { await collector.bytes == Array("s:52\na:1:0\n".utf8) })
    let received = clock.now()
    pty.close()
    #expect(
      await waitUntil(timeout: 10) {
        await collector.statuses.contains { if case .lost = $0 { true } else { false } }
      })
    #expect(
      await waitUntil(timeout: 10) {
        await collector.statuses.contains { if case .retrying = $0 { true } else { false } }
      })
    task.cancel()
    // Cancelling ends the stream (the reading thread wakes and stops).
    let ended = await waitUntil(timeout: 10) { task.isCancelled }
    #expect(ended)
    _ = await task.value
    let times = await collector.events.compactMap {
      if case .bytes(_, let t) = $0 { t } else { nil }
    }
    // Stamped on the source's clock between the write and its arrival.
    #expect(!times.isEmpty && times.allSatisfy { $0 >= written && $0 <= received }, "\(times)")
  }

  @Test func serialSourceRetriesAMissingDeviceUntilItAppears() async throws {
    let dir = ScratchDirectory()
    let link = dir.file("clip")
    let source = SerialSource(path: link, backoff: Backoff(initial: 0.1, maximum: 0.2))
    let collector = Collector()
    let task = Task {
      for await e in source.events(clock: .startingNow()) { await collector.add(e) }
    }
    // Bounds, not targets (see above): a full run once took 3.5 s here.
    #expect(
      await waitUntil(timeout: 20) {
        await collector.statuses.contains { if case .lost = $0 { true } else { false } }
      })
    let pty = try PseudoTerminal()
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pty.slavePath)
    #expect(
      await waitUntil(timeout: 20) { await collector.statuses.contains(.connected(detail: link)) })
    try pty.write(Array("s:60\n".utf8))
    #expect(await waitUntil(timeout: 20) { await collector.bytes == Array("s:60\n".utf8) })
    task.cancel()
    _ = await task.value
    pty.close()
  }

  @Test func replayAtMaxSpeedGivesTheFileBytesAsTheyAre() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    try stream.write(to: dir.file("a.lbs"))
    let source = try ReplaySource(path: dir.file("a.lbs"), speed: .max)
    #expect(source.name == "replay:a.lbs")
    #expect(source.hints.exercise == .squat)
    #expect(source.hints.loadKg == 100)
    #expect(source.hints.timing == .recorded(wallClockOrigin: 1_795_233_600))
    var bytes: [UInt8] = []
    for await e in source.events(clock: .startingNow()) {
      if case .recorded(let chunk) = e { bytes += chunk }
    }
    #expect(bytes == Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("a.lbs")))))
  }

  @Test func replayKeepsTheRecordedPaceAndLoops() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(0.5)
    try stream.write(to: dir.file("b.lbs"))
    let source = try ReplaySource(path: dir.file("b.lbs"), speed: .factor(1), loop: true)
    let start = ContinuousClock.now
    var passes = 1
    var lastT = -1.0
    var reader = StreamReader()
    var offset = 0.0
    loop: for await e in source.events(clock: .startingNow()) {
      switch e {
      case .status(.rewound):
        passes += 1
        if passes == 3 { break loop }
        reader = StreamReader()
        offset = lastT
      case .recorded(let chunk):
        chunk.withUnsafeBytes {
          reader.append($0) { row in
            guard case .line(let t, _) = row else { return }
            #expect(t + offset >= lastT)
            lastT = t + offset
          }
        }
      default: break
      }
    }
    let elapsed = ContinuousClock.now - start
    // Two passes of ~0.5 s each, at the recording's pace (the upper bound only
    // catches a gross slowdown: a starved suite can lose seconds anywhere).
    #expect(elapsed >= .milliseconds(900))
    #expect(elapsed < .seconds(10))
    #expect(lastT > 0.9)
  }
}
