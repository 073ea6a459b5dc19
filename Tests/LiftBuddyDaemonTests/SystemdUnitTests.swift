import Foundation
import Testing

/// The unit file as systemd itself reads it: `systemd-analyze verify` on a
/// copy whose ExecStart is the built binary, and the hardening score.
@Suite struct SystemdUnitTests {
  static var unitText: String {
    get throws {
      try String(
        contentsOfFile: Binaries.packageRoot.appendingPathComponent("systemd/liftbuddyd.service")
          .path, encoding: .utf8)
    }
  }

  /// A copy of the unit with ExecStart pointing at the built binary.
  static func testCopy(in dir: ScratchDirectory) throws -> String {
    let text = try unitText.replacingOccurrences(
      of: "ExecStart=/usr/local/bin/liftbuddyd", with: "ExecStart=\(Binaries.liftbuddyd)")
    let path = dir.file("liftbuddyd.service")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
    p.arguments = arguments
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  static var haveSystemdAnalyze: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze")
  }

  @Test(.enabled(if: haveSystemdAnalyze)) func unitVerifies() throws {
    let dir = ScratchDirectory()
    let (status, output) = try Self.run(["verify", try Self.testCopy(in: dir)])
    #expect(status == 0, "\(output)")
    #expect(output.isEmpty, "\(output)")
  }

  @Test(.enabled(if: haveSystemdAnalyze)) func exposureIsAtMostTwoAndAHalf() throws {
    let dir = ScratchDirectory()
    let (status, output) = try Self.run([
      "security", "--offline=true", "--threshold=25", try Self.testCopy(in: dir),
    ])
    #expect(status == 0, "\(output)")
    let line = try #require(
      output.split(separator: "\n").first { $0.contains("Overall exposure level") })
    let score = line.split(separator: " ").compactMap {
      Double($0.trimmingCharacters(in: .punctuationCharacters))
    }
    #expect(score.count == 1 && score[0] <= 2.5, "\(line)")
  }

  @Test func unitKeepsWhatTheDaemonNeeds() throws {
    let text = try Self.unitText
    for required in [
      "Type=notify", "WatchdogSec=", "Restart=on-failure", "RuntimeDirectory=liftbuddy",
      "StateDirectory=liftbuddy",
      "SupplementaryGroups=dialout", "RestrictAddressFamilies=AF_UNIX AF_BLUETOOTH AF_NETLINK",
      "RestartPreventExitStatus=78", "MemoryMax=", "TasksMax=", "CPUWeight=1000",
    ] {
      #expect(text.contains(required), "\(required)")
    }
    // PrivateNetwork would hide the Bluetooth sockets the BLE source needs.
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("PrivateNetwork=") })
    // A real-time policy would let a flood of clients starve the machine.
    #expect(text.contains("\nRestrictRealtime=yes\n"))
    #expect(!text.split(separator: "\n").contains { $0.hasPrefix("CPUSchedulingPolicy=") })
  }

  @Test func udevRuleNamesTheClipForEveryAdapter() throws {
    let rule = try String(
      contentsOfFile: Binaries.packageRoot.appendingPathComponent("systemd/99-liftbuddy.rules")
        .path, encoding: .utf8)
    for vidpid in [("1a86", "7523"), ("10c4", "ea60"), ("0403", "6001"), ("2341", "0043")] {
      #expect(rule.contains("ATTRS{idVendor}==\"\(vidpid.0)\", ATTRS{idProduct}==\"\(vidpid.1)\""))
    }
    #expect(rule.contains("SYMLINK+=\"liftbuddy-clip\""))
    #expect(rule.contains("ENV{LIFTBUDDY_CLIP}=\"1\""))
    #expect(rule.contains("GROUP=\"dialout\""))
  }
}
