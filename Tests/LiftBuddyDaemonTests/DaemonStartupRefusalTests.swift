import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// liftbuddyd, the built binary, given what it must refuse at start: each
/// refusal is exit 78 (EX_CONFIG, which stops systemd's restart loop) with
/// one line naming the key or flag and what is allowed. Before issue 9,
/// `--speed 1e20` crashed with SIGILL and the file and record problems were
/// found only later, or never.
extension DaemonProcessTests {
  private func refuse(
    _ arguments: [String], config: String? = nil, in dir: ScratchDirectory = ScratchDirectory()
  ) async throws -> String {
    var arguments = arguments
    if let config {
      try config.write(toFile: dir.file("d.conf"), atomically: true, encoding: .utf8)
      arguments += ["--config", dir.file("d.conf")]
    }
    if !arguments.contains("--source") && config?.contains("source") != true {
      arguments += ["--source", "serial:\(dir.file("no-such-tty"))"]
    }
    if !arguments.contains("--output-dir") { arguments += ["--output-dir", dir.file("lifts")] }
    let daemon = try DaemonChild(
      Binaries.liftbuddyd, arguments + ["--socket", dir.file("d.sock")], in: dir,
      name: "liftbuddyd")
    let status = await daemon.wait(timeout: 10)
    #expect(status == 78, "\(daemon.stderr)")
    #expect(daemon.process.terminationReason == .exit)
    return daemon.stderr
  }

  @Test(arguments: ["1e20", "1e308", "1e-300", "-1", "0", "nan", "inf", "1001"])
  func absurdSpeedsAreRefusedNotACrash(_ speed: String) async throws {
    let stderr = try await refuse(["--speed", speed])
    #expect(stderr.contains("--speed"), "\(stderr)")
    #expect(stderr.contains("0.01 to 1000"), "\(stderr)")
    #expect(!stderr.contains("Missing value"))
  }

  @Test func anAbsurdSpeedInTheConfigFileIsRefusedWithItsLine() async throws {
    let stderr = try await refuse([], config: "# pace\nspeed = 1e20\n")
    #expect(stderr.contains("d.conf:2: invalid value for 'speed'"), "\(stderr)")
  }

  @Test func aLoadOutOfRangeNamesTheFlagThatWasGiven() async throws {
    let stderr = try await refuse(["--load", "1001"])
    #expect(stderr.contains("--load: invalid value for 'load_kg'"), "\(stderr)")
    #expect(!stderr.contains("--load-kg"))
  }

  @Test func anOutputDirectoryThatIsAFileIsRefused() async throws {
    let dir = ScratchDirectory()
    try "x".write(toFile: dir.file("lifts"), atomically: true, encoding: .utf8)
    let stderr = try await refuse(["--output-dir", dir.file("lifts")], in: dir)
    #expect(stderr.contains("output_dir"), "\(stderr)")
    #expect(stderr.contains("Not a directory"), "\(stderr)")
  }

  @Test func recordingIntoAMissingDirectoryOrThroughASymlinkIsRefused() async throws {
    let dir = ScratchDirectory()
    let missing = try await refuse(["--record", dir.file("nowhere/rec.lbs")], in: dir)
    #expect(missing.contains("record"), "\(missing)")
    #expect(missing.contains("No such file or directory"), "\(missing)")

    try "precious".write(toFile: dir.file("victim"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: dir.file("rec.lbs"), withDestinationPath: dir.file("victim"))
    let link = try await refuse(["--record", dir.file("rec.lbs")], in: dir)
    #expect(link.contains("symlink"), "\(link)")
    #expect(try String(contentsOfFile: dir.file("victim"), encoding: .utf8) == "precious")
  }
}
