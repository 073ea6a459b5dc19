import Foundation
import LiftBuddyDaemon
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// liftbuddyd, the built binary, run as a child process against real
/// pseudo-terminals, files, directories and signals. One at a time: they
/// run at the pace of a real clip and share two cores.
@Suite(.serialized) struct DaemonProcessTests {
  /// A daemon reading `serial:<link>`, where `link` is a symlink to a pty's
  /// slave (as udev's /dev/liftbuddy-clip is to /dev/ttyUSB0).
  struct LiveRig {
    let dir = ScratchDirectory()
    var link: String { dir.file("clip") }
    var out: String { dir.file("lifts") }
    var pty: PseudoTerminal
    let daemon: DaemonChild

    init(restS: Double = 5, extraArguments: [String] = []) throws {
      pty = try PseudoTerminal()
      try FileManager.default.createSymbolicLink(
        atPath: dir.file("clip"), withDestinationPath: pty.slavePath)
      try "set_rest_s = \(restS)\nlog_level = debug\n".write(
        toFile: dir.file("d.conf"), atomically: true, encoding: .utf8)
      daemon = try DaemonChild(
        Binaries.liftbuddyd,
        [
          "--source", "serial:\(dir.file("clip"))", "--config", dir.file("d.conf"), "--output-dir",
          dir.file("lifts"), "--socket", dir.file("d.sock"),
        ] + extraArguments, in: dir, name: "liftbuddyd")
    }

    /// Points the symlink at a new pty, as a re-plugged adapter would appear.
    mutating func replug() throws {
      let fresh = try PseudoTerminal()
      let temp = dir.file("clip.new")
      try FileManager.default.createSymbolicLink(atPath: temp, withDestinationPath: fresh.slavePath)
      guard rename(temp, link) == 0 else { throw POSIXError(.EIO) }
      pty = fresh
    }

    func connectedCount() -> Int {
      daemon.stderr.components(separatedBy: ": connected (").count - 1
    }
  }

  @Test func ptyStreamBecomesAReportFile() async throws {
    let rig = try LiveRig()
    #expect(await waitUntil(timeout: 5) { rig.connectedCount() == 1 }, "\(rig.daemon.stderr)")
    var stream = SquatStream()
    stream.still(1)
    stream.reps(3)
    stream.still(1)
    await PacedWriter(pty: rig.pty).play(stream.rows[...])
    // Then the clip goes silent: the set still ends, set_rest_s (5 s) after
    // its last rep, because the pipeline advances the analyzer's clock.
    let silentSince = ContinuousClock.now
    #expect(
      await waitUntil(timeout: 9) { jsonFiles(in: rig.out).count == 1 }, "\(rig.daemon.stderr)")
    #expect(ContinuousClock.now - silentSince > .seconds(3))
    let files = jsonFiles(in: rig.out)
    try #require(files.count == 1)
    let report = try reportObject(files[0])
    #expect(report["schema"] as? String == "liftbuddy/lift-report@1")
    #expect(report["source"] as? String == "serial:\(rig.link)")
    #expect(repCount(report) == 3)
    #expect(
      URL(fileURLWithPath: files[0]).lastPathComponent == "\(report["id"] as? String ?? "?").json")
    #expect(rig.daemon.isRunning)
    rig.daemon.signal(SIGTERM)
    await rig.daemon.expectExit(within: 10)
  }

  @Test func unplugMidSetClosesTheSetAndTheDaemonReconnects() async throws {
    var rig = try LiveRig(restS: 30)
    #expect(await waitUntil(timeout: 5) { rig.connectedCount() == 1 }, "\(rig.daemon.stderr)")
    var first = SquatStream()
    first.still(1)
    first.reps(2)
    first.still(1.5)
    await PacedWriter(pty: rig.pty).play(first.rows[...])
    try await Task.sleep(for: .milliseconds(300))
    // Unplug: the master goes away, the daemon's reads fail with EIO.
    rig.pty.close()
    #expect(
      await waitUntil(timeout: 10) { jsonFiles(in: rig.out).count == 1 }, "\(rig.daemon.stderr)")
    // The set's report goes out first, then the status.
    #expect(await waitUntil(timeout: 10) { rig.daemon.stderr.contains(": disconnected (") })
    let firstReport = try reportObject(try #require(jsonFiles(in: rig.out).first))
    #expect(repCount(firstReport) == 2)
    #expect(rig.daemon.isRunning)

    try rig.replug()
    #expect(await waitUntil(timeout: 12) { rig.connectedCount() == 2 }, "\(rig.daemon.stderr)")
    var second = SquatStream()
    second.still(1)
    second.reps(2)
    second.still(1.5)
    await PacedWriter(pty: rig.pty).play(second.rows[...])
    // Shutdown closes the second set, whatever the rest time.
    rig.daemon.signal(SIGTERM)
    await rig.daemon.expectExit(within: 10)
    let files = jsonFiles(in: rig.out)
    #expect(files.count == 2)
    #expect(try files.map { repCount(try reportObject($0)) }.contains(2))
  }

  /// How long the stop takes is a benchmark's matter (BENCHMARKS.md); under a
  /// full parallel suite on two cores a process can wait seconds to run.
  @Test func sigtermMidSetWritesTheReportAndExits() async throws {
    let rig = try LiveRig(restS: 30)
    #expect(await waitUntil(timeout: 5) { rig.connectedCount() == 1 }, "\(rig.daemon.stderr)")
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(1.5)
    await PacedWriter(pty: rig.pty).play(stream.rows[...])
    #expect(jsonFiles(in: rig.out).isEmpty)
    rig.daemon.signal(SIGTERM)
    await rig.daemon.expectExit(within: 10)
    let files = jsonFiles(in: rig.out)
    try #require(files.count == 1, "\(rig.daemon.stderr)")
    #expect(repCount(try reportObject(files[0])) == 2)
    #expect(rig.daemon.stderr.contains("stopping"))
  }

  @Test func unwritableOutputDirectoryIsLoggedAndRetriedWithoutACrash() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(40)
    try stream.write(to: dir.file("s.lbs"))
    let out = dir.file("lifts")
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    try setReadOnly(out, true)
    defer { try? setReadOnly(out, false) }
    try "set_rest_s = 3\n".write(toFile: dir.file("d.conf"), atomically: true, encoding: .utf8)
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("s.lbs"))", "--speed", "5", "--config", dir.file("d.conf"),
        "--output-dir", out, "--socket", dir.file("d.sock"),
      ], in: dir, name: "liftbuddyd")
    #expect(
      await waitUntil(timeout: 8) { daemon.stderr.contains("cannot write report") },
      "\(daemon.stderr)")
    #expect(daemon.stderr.contains("<3>"), "logged at error priority")
    #expect(daemon.isRunning)
    #expect(jsonFiles(in: out).isEmpty)
    try setReadOnly(out, false)
    #expect(await waitUntil(timeout: 5) { jsonFiles(in: out).count == 1 }, "\(daemon.stderr)")
    #expect(daemon.isRunning)
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
  }

  @Test(arguments: [
    (["load_kg = heavy"], [String](), "load_kg", ":2"),
    (["source = tcp:1.2.3.4"], [], "source", ":2"),
    (["exercise = squat"], [], "source", "missing"),
    (["source = serial:/dev/null"], ["--speed", "fast"], "speed", "--speed"),
    (["source = serial:/dev/null", "socket_mode = 1777"], [], "socket_mode", ":3"),
  ])
  func badConfigurationStopsTheStartNamingTheKey(
    lines: [String], flags: [String], key: String, origin: String
  ) async throws {
    let dir = ScratchDirectory()
    try (["# test"] + lines).joined(separator: "\n").write(
      toFile: dir.file("bad.conf"), atomically: true, encoding: .utf8)
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      ["--config", dir.file("bad.conf"), "--socket", dir.file("d.sock")] + flags, in: dir)
    let status = await daemon.wait(timeout: 5)
    #expect(status == 78)
    #expect(daemon.stderr.contains("'\(key)'"), "\(daemon.stderr)")
    #expect(daemon.stderr.contains(origin), "\(daemon.stderr)")
    #expect(daemon.stderr.hasPrefix("<2>"))
  }

  @Test func helpExplainsEveryOption() async throws {
    let dir = ScratchDirectory()
    let daemon = try DaemonChild(Binaries.liftbuddyd, ["--help"], in: dir)
    await daemon.expectExit(within: 10)
    for flag in [
      "--source", "--socket", "--output-dir", "--record", "--speed", "--loop", "--config",
      "--exercise", "--load",
      "--baud", "--socket-mode", "--socket-group",
    ] {
      #expect(daemon.stdout.contains(flag), "\(flag)")
    }
  }
}
