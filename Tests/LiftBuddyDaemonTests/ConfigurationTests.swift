import Foundation
import LiftBuddyCore
import Testing

@testable import LiftBuddyDaemon

@Suite struct ConfigurationTests {
  @Test func fileValuesApplyAndFlagsOverrideThem() throws {
    let file = try ConfigFile(
      path: "d.conf",
      text: """
        # comment
        source = serial:/dev/ttyUSB0
          exercise = squat
        load_kg = 100
        socket_mode = 0640
        output_dir = "/var/lib/x y"
        set_rest_s = 8

        """)
    var c = DaemonConfiguration()
    try file.apply(to: &c)
    try c.set("load_kg", to: "120", origin: "--load-kg")
    #expect(c.source == .serial(path: "/dev/ttyUSB0"))
    #expect(c.exercise == .squat)
    #expect(c.loadKg == 120)
    #expect(c.socketMode == 0o640)
    #expect(c.outputDir == "/var/lib/x y")
    #expect(c.analyzer.setRestS == 8)
  }

  @Test func loaderPutsFlagsOverTheFile() throws {
    let dir = ScratchDirectory()
    try "source = replay:a.lbs\nspeed = 2\nexercise = deadlift\n".write(
      toFile: dir.file("c.conf"), atomically: true, encoding: .utf8)
    let loaded = try ConfigurationLoader(path: dir.file("c.conf"), flags: [("speed", "max")]).load()
    #expect(loaded.configuration.speed == .max)
    #expect(loaded.configuration.exercise == .deadlift)
    #expect(loaded.fromFlags == ["speed"])
    #expect(loaded.fromFile == ["source", "speed", "exercise"])
  }

  @Test(arguments: [
    ("load_kg = heavy", "load_kg"), ("exercise = curl", "exercise"), ("baud = 1234", "baud"),
    ("socket_mode = 0999", "socket_mode"), ("speed = -1", "speed"), ("loop = maybe", "loop"),
    ("source = usb:/dev/x", "source"), ("colour = red", "colour"), ("set_rest_s = 0", "set_rest_s"),
    ("log_level = loud", "log_level"), ("smoother = kalman", "smoother"),
  ])
  func badValuesNameTheirKeyAndLine(line: String, key: String) throws {
    let file = try ConfigFile(path: "bad.conf", text: "# first\n\(line)\n")
    var c = DaemonConfiguration()
    let error = try #require(throws: ConfigurationError.self) { try file.apply(to: &c) }
    #expect(error.key == key)
    #expect(error.origin == "bad.conf:2")
    #expect(error.description.contains("'\(key)'"))
    #expect(!error.reason.isEmpty)
  }

  @Test func aLineWithoutEqualsIsAnError() {
    #expect(throws: ConfigurationError.self) {
      try ConfigFile(path: "x", text: "source serial:/dev/x\n")
    }
  }

  @Test func sourceIsRequired() {
    let error = #expect(throws: ConfigurationError.self) { try DaemonConfiguration().validated() }
    #expect(error?.key == "source")
  }

  @Test func defaultsFollowSystemdDirectories() {
    let c = DaemonConfiguration()
    #expect(c.resolvedOutputDir(environment: [:]) == "./lifts")
    #expect(c.resolvedSocketPath(environment: [:]) == "./liftbuddy.sock")
    let env = [
      "STATE_DIRECTORY": "/var/lib/liftbuddy", "RUNTIME_DIRECTORY": "/run/liftbuddy:/run/other",
    ]
    #expect(c.resolvedOutputDir(environment: env) == "/var/lib/liftbuddy/lifts")
    #expect(c.resolvedSocketPath(environment: env) == "/run/liftbuddy/liftbuddy.sock")
  }

  /// The example file documents every key, and each documented value is
  /// one the daemon accepts.
  @Test func exampleConfigFileDocumentsEveryKeyWithValidValues() throws {
    let path = Binaries.packageRoot.appendingPathComponent("systemd/liftbuddyd.conf").path
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let uncommented = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      line -> Substring in
      line.hasPrefix("#") && line.dropFirst().first?.isLetter == true && line.contains(" = ")
        ? line.dropFirst() : line
    }.joined(separator: "\n")
    let file = try ConfigFile(path: path, text: uncommented)
    #expect(Set(file.entries.map(\.key)) == Set(DaemonConfiguration.keys))
    var c = DaemonConfiguration()
    try file.apply(to: &c)
  }

  @Test func sourceSpecs() throws {
    #expect(try SourceSpec(parsing: "serial:auto") == .serialAuto)
    #expect(try SourceSpec(parsing: "ble:C8:FD:19:00:11:22") == .ble(address: "C8:FD:19:00:11:22"))
    #expect(try SourceSpec(parsing: "ble:hci1/auto") == .ble(address: "hci1/auto"))
    #expect(throws: ConfigurationError.Reason.self) { try SourceSpec(parsing: "ble:hci1/C8:FD") }
    #expect(try SourceSpec(parsing: "replay:/a/b.lbs") == .replay(path: "/a/b.lbs"))
    #expect(throws: ConfigurationError.Reason.self) { try SourceSpec(parsing: "serial:") }
  }

  @Test func backoffDoublesToItsCeilingAndResets() {
    var b = Backoff(initial: 0.5, maximum: 8)
    #expect((0..<7).map { _ in b.take() } == [0.5, 1, 2, 4, 8, 8, 8])
    b.reset()
    #expect(b.take() == 0.5)
  }
}
