import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `liftbuddyd --source replay:FILE --speed max` and `liftbuddy analyze FILE`
/// run the same analyzer over the same lines with the same session, so each
/// JSON file is byte for byte one of analyze's report lines.
extension DaemonProcessTests {
  /// The same on recorded samples whose header declares a sonar rate other
  /// than the default (15, 22 and 40 Hz): the daemon's analyzer must start
  /// its clock from that rate too.
  @Test(arguments: [
    "bench_press-norack-serial-clean.lbs", "deadlift-ble-typical.lbs",
    "squat-rackmoves-serial-dirty.lbs",
  ])
  func replayMatchesAnalyzeOnSamplesWithTheirOwnRate(_ name: String) async throws {
    let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("SampleStreams/\(name)").path
    let dir = ScratchDirectory()
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(sample)", "--speed", "max", "--output-dir", dir.file("lifts"),
        "--socket", dir.file("d.sock"),
      ], in: dir, name: "liftbuddyd")
    await daemon.expectExit(within: 30)
    let analyze = try DaemonChild(
      Binaries.liftbuddy, ["analyze", sample], in: dir, name: "analyze")
    await analyze.expectExit(within: 30)
    let lines = analyze.stdout.split(separator: "\n").map { String($0) + "\n" }
    let contents = try jsonFiles(in: dir.file("lifts")).map {
      try String(contentsOfFile: $0, encoding: .utf8)
    }
    #expect(!lines.isEmpty)
    #expect(Set(contents) == Set(lines))
  }

  @Test func replayAtMaxSpeedWritesExactlyTheReportsAnalyzePrints() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    for _ in 0..<3 {
      stream.still(3)
      stream.reps(4)
      stream.still(15)
    }
    try stream.write(to: dir.file("three-sets.lbs"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("three-sets.lbs"))", "--speed", "max", "--output-dir",
        dir.file("lifts"),
        "--socket", dir.file("d.sock"), "--record", dir.file("rerecorded.lbs"),
      ], in: dir, name: "liftbuddyd")
    await daemon.expectExit(within: 30)
    let analyze = try DaemonChild(
      Binaries.liftbuddy, ["analyze", dir.file("three-sets.lbs")], in: dir, name: "analyze")
    await analyze.expectExit(within: 30)

    let lines = analyze.stdout.split(separator: "\n").map(String.init)
    let files = jsonFiles(in: dir.file("lifts"))
    #expect(lines.count == 3)
    #expect(files.count == lines.count)
    let contents = try files.map { try String(contentsOfFile: $0, encoding: .utf8) }
    #expect(Set(contents) == Set(lines.map { $0 + "\n" }))

    // The re-recorded stream replays to the same reports as well.
    let again = try DaemonChild(
      Binaries.liftbuddy, ["analyze", dir.file("rerecorded.lbs")], in: dir, name: "analyze-again")
    await again.expectExit(within: 30)
    let repsAgain = again.stdout.split(separator: "\n").map { line in
      (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).flatMap(repCount)
    }
    #expect(repsAgain == [4, 4, 4])
  }
}
