import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// SIGHUP sent to the running binary: exercise and load change for the next
/// set; a broken file changes nothing and the daemon keeps running.
extension DaemonProcessTests {
  @Test func sighupAppliesExerciseAndLoadToTheNextSet() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(2)
    stream.reps(2)
    stream.still(25)
    stream.reps(2)
    stream.still(10)
    try stream.write(to: dir.file("s.lbs"), exercise: nil, loadKg: nil)
    let conf = dir.file("d.conf")
    try "set_rest_s = 3\n".write(toFile: conf, atomically: true, encoding: .utf8)
    let out = dir.file("lifts")
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("s.lbs"))", "--speed", "5", "--config", conf, "--output-dir",
        out,
        "--socket", dir.file("d.sock"),
      ], in: dir, name: "liftbuddyd")
    #expect(await waitUntil(timeout: 8) { jsonFiles(in: out).count == 1 }, "\(daemon.stderr)")
    let first = try reportObject(try #require(jsonFiles(in: out).first))
    #expect(first["exercise"] is NSNull)

    try "set_rest_s = 3\nload_kg = lots\n".write(toFile: conf, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(
      await waitUntil(timeout: 10) { daemon.stderr.contains("reload failed") }, "\(daemon.stderr)")
    #expect(daemon.isRunning)

    try "set_rest_s = 3\nexercise = deadlift\nload_kg = 140\n".write(
      toFile: conf, atomically: true, encoding: .utf8)
    daemon.signal(SIGHUP)
    #expect(
      await waitUntil(timeout: 10) { daemon.stderr.contains("configuration reloaded") },
      "\(daemon.stderr)")
    await daemon.expectExit(within: 15)
    let files = jsonFiles(in: out)
    try #require(files.count == 2, "\(daemon.stderr)")
    let reports = try files.map(reportObject).sorted {
      ($0["start_s"] as? Double ?? 0) < ($1["start_s"] as? Double ?? 0)
    }
    #expect(reports[1]["exercise"] as? String == "deadlift")
    #expect(reports[1]["load_kg"] as? Double == 140)
  }
}

extension DaemonProcessTests {
  /// Ctrl-C in a terminal: the same graceful path as SIGTERM.
  @Test func sigintMidSetDuringAPacedReplayWritesTheReportAndExitsZero() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(30)
    try stream.write(to: dir.file("s.lbs"))
    let out = dir.file("lifts")
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("s.lbs"))", "--speed", "2", "--output-dir", out, "--socket",
        dir.file("d.sock"), "--record", dir.file("rec.lbs"),
      ], in: dir, name: "liftbuddyd")
    #expect(await waitUntil(timeout: 8) { daemon.stderr.contains("rep 2:") }, "\(daemon.stderr)")
    try await Task.sleep(for: .milliseconds(700))
    #expect(jsonFiles(in: out).isEmpty)
    // The recording is written as it goes (flushed every half second).
    let partial = try String(contentsOfFile: dir.file("rec.lbs"), encoding: .utf8)
    #expect(partial.split(separator: "\n").count > 400)
    daemon.signal(SIGINT)
    await daemon.expectExit(within: 10)
    let files = jsonFiles(in: out)
    try #require(files.count == 1)
    #expect(repCount(try reportObject(files[0])) == 2)
  }
}

extension DaemonProcessTests {
  /// /dev/full fails every write with ENOSPC, as a full disk does.
  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func recordingToAFullDiskIsLoggedWhileReportsGoOn() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(30)
    try stream.write(to: dir.file("s.lbs"))
    try "set_rest_s = 3\n".write(toFile: dir.file("d.conf"), atomically: true, encoding: .utf8)
    let out = dir.file("lifts")
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("s.lbs"))", "--speed", "4", "--config", dir.file("d.conf"),
        "--output-dir", out, "--socket", dir.file("d.sock"), "--record", "/dev/full",
      ], in: dir, name: "liftbuddyd")
    #expect(
      await waitUntil(timeout: 10) {
        daemon.stderr.contains("<3>liftbuddyd: cannot write the recording /dev/full")
      },
      "\(daemon.stderr)")
    #expect(await waitUntil(timeout: 6) { jsonFiles(in: out).count == 1 }, "\(daemon.stderr)")
    #expect(daemon.isRunning)
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
  }
}
