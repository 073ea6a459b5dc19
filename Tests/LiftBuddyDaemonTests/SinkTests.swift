import Foundation
import LiftBuddyCore
import Logging
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
    let writer = ReportFileWriter(directory: out, logger: Logger(label: "test"))
    let report = Self.report()
    await writer.publish(.analyzer(.lift(report)))
    await writer.publish(.sample(LiveState()))
    let files = try FileManager.default.contentsOfDirectory(atPath: out)
    #expect(files == ["\(report.id).json"])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: out + "/" + files[0]))
    #expect(String(decoding: bytes, as: UTF8.self) == report.jsonLine() + "\n")
    #expect(await writer.pendingCount == 0)
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
    let writer = ReportFileWriter(
      directory: out, logger: Logger(label: "test"), backoff: Backoff(initial: 0.1, maximum: 0.2))
    await writer.publish(.analyzer(.lift(Self.report())))
    #expect(await writer.pendingCount == 1)
    #expect(jsonFiles(in: out).isEmpty)
    try await Task.sleep(for: .milliseconds(400))
    #expect(await writer.pendingCount == 1)
    try setReadOnly(out, false)
    let done = await waitUntil(timeout: 3) { jsonFiles(in: out).count == 1 }
    #expect(done)
    #expect(await writer.pendingCount == 0)
    // No temporary file left behind by the failed attempts.
    #expect(try FileManager.default.contentsOfDirectory(atPath: out).count == 1)
  }

  @Test func recorderWritesARecordedStreamTheReaderReadsBack() throws {
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
    recorder.close()
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
