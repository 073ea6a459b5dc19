import Foundation
import LiftBuddyCore
import Logging
import SystemPackage
import Testing

@testable import LiftBuddyDaemon

@Suite(.serialized) struct SinkTests {
  static func report(id: String = "20261121T040005Z-replay-a.lbs-1") -> LiftReport {
    LiftReport(
      id: id, source: "replay:a.lbs", exercise: "squat", loadKg: 100,
      startedAt: "2026-11-21T04:00:05.000Z", endedAt: "2026-11-21T04:00:16.981Z", startS: 5,
      endS: 16.981,
      reps: [
        RepReport(
          index: 1, concentricStartS: 6.191, concentricEndS: 7.39, romCm: 50.2,
          meanVelocityMps: 0.419,
          peakVelocityMps: 0.647, meanPropulsiveVelocityMps: 0.419, timeToPeakVelocityS: 0.559,
          peakAccelerationMps2: 1.89, eccentricDurationS: 1.173, stickingPointCm: nil,
          maxAbsPitchDeg: 1,
          maxAbsRollDeg: 0)
      ],
      summary: SetSummary(
        repCount: 1, bestMeanVelocityMps: 0.419, velocityLossPct: nil, estimatedOneRepMaxKg: nil),
      recommendations: [], quality: QualityCounts(lines: 100))
  }

  @Test func reportFileIsTheJSONLineWrittenAtomically() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts/nested")
    let writer = try ReportFileWriter(directory: out, logger: Logger(label: "test"))
    let report = Self.report()
    writer.publish(.analyzer(.lift(report)))
    writer.publish(.sample(LiveState()))
    await writer.drain()
    let files = try FileManager.default.contentsOfDirectory(atPath: out)
    #expect(files == ["\(report.id).json"])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + files[0]))
    #expect(String(decoding: bytes, as: UTF8.self) == report.jsonLine() + "\n")
    #expect(writer.counts == .init(written: 1, setAside: 0, pending: 0))
    await writer.close()
  }

  @Test func reportIdsCannotLeaveTheDirectory() {
    #expect(ReportFileWriter.fileName(for: "../../etc/passwd") == "_._.._etc_passwd.json")
    #expect(ReportFileWriter.fileName(for: "a-b_c.1") == "a-b_c.1.json")
  }

  @Test func unwritableDirectoryKeepsTheReportAndRetries() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try setReadOnly(out, true)
    defer { try? setReadOnly(out, false) }
    #expect(!isWritable(out))
    let writer = try ReportFileWriter(
      directory: out, logger: Logger(label: "test"), backoff: Backoff(initial: 0.1, maximum: 0.2),
      maxAttempts: 50)
    writer.publish(.analyzer(.lift(Self.report())))
    await writer.drain()
    #expect(writer.counts.pending == 1)
    #expect(jsonFiles(in: out).isEmpty)
    try await Task.sleep(for: .milliseconds(400))
    #expect(writer.counts.pending == 1)
    try setReadOnly(out, false)
    let done = await waitUntil(timeout: 10) { writer.counts.written == 1 }
    #expect(done)
    #expect(jsonFiles(in: out).count == 1)
    #expect(writer.counts == .init(written: 1, setAside: 0, pending: 0))
    // No temporary file left behind by the failed attempts.
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 1)
    await writer.close()
  }

  // MARK: Attacks on the output directory (issue 9, items 1, 5, 6)

  /// Today's writer opened `.<id>.json.tmp-<pid>` with O_CREAT|O_TRUNC and
  /// no O_NOFOLLOW: a symlink planted at that predictable name made it
  /// truncate and overwrite the target.
  @Test func aSymlinkAtEveryOldTemporaryNameIsNeverFollowed() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let victim = dir.file("victim")
    try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
    let report = Self.report()
    let name = ReportFileWriter.fileName(for: report.id)
    // The names today's writer and this process would use.
    for pid in [getpid(), 1, 2] {
      try FileManager.default.createSymbolicLink(
        atPath: out + "/.\(name).tmp-\(pid)", withDestinationPath: victim)
    }
    let writer = try ReportFileWriter(directory: out, logger: Logger(label: "test"))
    writer.publish(.analyzer(.lift(report)))
    await writer.drain()
    await writer.close()
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    #expect(
      try String(contentsOfFile: out + "/" + name, encoding: .utf8) == report.jsonLine() + "\n")
  }

  /// The directory is held open from start: swapping it for a symlink
  /// while the daemon runs does not send the next report elsewhere.
  @Test func anOutputDirectorySwappedForASymlinkKeepsGettingTheReports() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    let elsewhere = dir.file("elsewhere")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
    let writer = try ReportFileWriter(directory: out, logger: Logger(label: "test"))
    #expect(rename(out, dir.file("lifts.moved")) == 0)
    try FileManager.default.createSymbolicLink(atPath: out, withDestinationPath: elsewhere)
    writer.publish(.analyzer(.lift(Self.report())))
    await writer.drain()
    await writer.close()
    #expect(jsonFiles(in: elsewhere).isEmpty)
    #expect(jsonFiles(in: dir.file("lifts.moved")).count == 1)
  }

  @Test func anOutputDirectoryThatIsARegularFileIsRefusedAtStart() throws {
    let dir = ScratchDirectory()
    try "x".write(toFile: dir.file("lifts"), atomically: false, encoding: .utf8)
    #expect(throws: Errno.notDirectory) {
      _ = try ReportFileWriter(directory: dir.file("lifts"), logger: Logger(label: "test"))
    }
  }

  /// Today a directory at one report's name made the writer retry it
  /// forever while every later report waited behind it.
  @Test func oneUnwritableReportIsSetAsideWithoutBlockingTheNext() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let blocked = Self.report(id: "20261121T040005Z-replay-a.lbs-1")
    try FileManager.default.createDirectory(
      atPath: out + "/" + ReportFileWriter.fileName(for: blocked.id),
      withIntermediateDirectories: false)
    let writer = try ReportFileWriter(
      directory: out, logger: Logger(label: "test"), backoff: Backoff(initial: 0.05, maximum: 0.1),
      maxAttempts: 3)
    writer.publish(.analyzer(.lift(blocked)))
    for n in 2...4 {
      writer.publish(.analyzer(.lift(Self.report(id: "20261121T040005Z-replay-a.lbs-\(n)"))))
    }
    await writer.drain()
    // The three after it are written at their first try.
    #expect(jsonFiles(in: out).count == 3 + 1)
    #expect(writer.counts.written == 3)
    #expect(await waitUntil(timeout: 10) { writer.counts.setAside == 1 })
    #expect(writer.counts == .init(written: 3, setAside: 1, pending: 0))
    await writer.close()
  }

  /// Temporary files a SIGKILL left behind are removed at the next start:
  /// ours only, never through a symlink, never another name.
  @Test func temporaryFilesOfAKilledRunAreRemovedAtStart() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    let victim = dir.file("victim.json.tmp-1234")
    try "keep".write(toFile: victim, atomically: false, encoding: .utf8)
    let stale = [".a.json.tmp-4242", ".b.json.tmp-0123456789abcdef"]
    for name in stale {
      try "{".write(toFile: out + "/" + name, atomically: false, encoding: .utf8)
    }
    let kept = ["a.json", ".notes", ".c.json.tmp-xyz", ".link.json.tmp-99"]
    for name in kept.dropLast() {
      try "{}".write(toFile: out + "/" + name, atomically: false, encoding: .utf8)
    }
    try FileManager.default.createSymbolicLink(
      atPath: out + "/.link.json.tmp-99", withDestinationPath: victim)
    let writer = try ReportFileWriter(directory: out, logger: Logger(label: "test"))
    await writer.close()
    let left = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(left == kept.sorted())
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
  }

  @Test func recorderWritesARecordedStreamTheReaderReadsBack() async throws {
    let dir = ScratchDirectory()
    let path = dir.file("rec.lbs")
    let recorder = try StreamRecorder(
      path: path, source: "serial:/dev/ttyUSB0", startedAtUnix: 1_795_233_000.25,
      exercise: .benchPress,
      loadKg: 62.5)
    let lines: [(Double, String)] = [
      (0, "s:52"), (0.0114, "a:1.5:-0.3"), (0.0496, "s:52"), (12.3456, "s:53"),
    ]
    for (t, line) in lines {
      var l = line
      l.withUTF8 { recorder.record(t: t, line: UnsafeRawBufferPointer($0)) }
    }
    await recorder.close()
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      text == """
        # liftbuddy-stream 1
        # source: serial:/dev/ttyUSB0
        # started_at: 2026-11-21T03:50:00.250Z
        # exercise: bench_press
        # load_kg: 62.5
        0.000 s:52
        0.011 a:1.5:-0.3
        0.050 s:52
        12.346 s:53

        """)
    var reader = StreamReader()
    var header: StreamHeader?
    var rows: [(Double, String)] = []
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { buf in
      let handle: (StreamRow) -> Void = { row in
        switch row {
        case .header(let h): header = h
        case .line(let t, let b): rows.append((t, String(decoding: b, as: UTF8.self)))
        case .rejected: Issue.record("rejected row")
        }
      }
      reader.append(UnsafeRawBufferPointer(buf), handle)
      reader.finish(handle)
    }
    #expect(header?.startedAtUnix == 1_795_233_000.25)
    #expect(header?.exercise == "bench_press")
    #expect(header?.source == "serial:/dev/ttyUSB0")
    #expect(rows.map(\.1) == lines.map(\.1))
    #expect(rows.map(\.0) == [0, 0.011, 0.05, 12.346])
  }
}

extension SinkTests {
  /// `--record` through a symlink wrote wherever the link pointed.
  @Test func theRecorderRefusesASymlinkAndAMissingDirectory() throws {
    let dir = ScratchDirectory()
    let victim = dir.file("victim")
    try "precious".write(toFile: victim, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("rec.lbs"), withDestinationPath: victim)
    #expect(throws: Errno.tooManySymbolicLinkLevels) {
      _ = try StreamRecorder(
        path: dir.file("rec.lbs"), source: "serial:x", startedAtUnix: 0, exercise: nil, loadKg: nil)
    }
    #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    #expect(throws: Errno.noSuchFileOrDirectory) {
      _ = try StreamRecorder(
        path: dir.file("missing/rec.lbs"), source: "serial:x", startedAtUnix: 0, exercise: nil,
        loadKg: nil)
    }
  }
}
