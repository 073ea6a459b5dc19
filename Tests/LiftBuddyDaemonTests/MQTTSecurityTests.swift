import Foundation
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Credentials and TLS against a real Mosquitto that checks them: a password
/// file and an ACL, a TLS listener with certificates `openssl` makes for the
/// test. The daemon is the built binary.
@Suite(
  .serialized,
  .enabled(if: MQTTTestBroker.isAvailable, "mosquitto is not installed (scripts/setup.sh)"))
struct MQTTSecurityTests {
  /// Root's broker drops to the `mosquitto` user, who cannot read the
  /// test's private directory; the test's own user stays.
  static var keepUser: String { geteuid() == 0 ? "user root\n" : "" }

  /// A broker with users `r6` (the rack) and `coach`, and the ACL of docs/mqtt.md.
  static func passwordBroker(in dir: ScratchDirectory) async throws -> MQTTTestBroker {
    let passwd = dir.file("passwd")
    try run("/usr/bin/mosquitto_passwd", ["-c", "-b", passwd, "r6", "secret"])
    try run("/usr/bin/mosquitto_passwd", ["-b", passwd, "coach", "coachpw"])
    let acl = dir.file("acl")
    try "pattern readwrite liftbuddy/%u/#\nuser coach\ntopic readwrite liftbuddy/#\n".write(
      toFile: acl, atomically: true, encoding: .utf8)
    return try await MQTTTestBroker(
      in: dir,
      settings: keepUser + "allow_anonymous false\npassword_file \(passwd)\nacl_file \(acl)\n")
  }

  /// A broker with the ACL of docs/mqtt.md, as written there, and its
  /// users: `r6` (a rack), `coach`, `wall` and `admin`.
  static func documentedACLBroker(in dir: ScratchDirectory) async throws -> MQTTTestBroker {
    let doc = try String(
      contentsOf: Binaries.packageRoot.appendingPathComponent("docs/mqtt.md"), encoding: .utf8)
    let afterTitle = try #require(doc.range(of: "`/etc/mosquitto/liftbuddy.acl`:"))
    let open = try #require(doc.range(of: "```\n", range: afterTitle.upperBound..<doc.endIndex))
    let close = try #require(doc.range(of: "```", range: open.upperBound..<doc.endIndex))
    let acl = String(doc[open.upperBound..<close.lowerBound])
    #expect(acl.contains("topic write liftbuddy/+/cmd"))
    let passwd = dir.file("passwd")
    try run("/usr/bin/mosquitto_passwd", ["-c", "-b", passwd, "r6", "secret"])
    for (user, password) in [("coach", "coachpw"), ("wall", "wallpw"), ("admin", "adminpw")] {
      try run("/usr/bin/mosquitto_passwd", ["-b", passwd, user, password])
    }
    // The tests' readiness probe, which the coach publishes.
    try (acl + "user coach\ntopic write \(MQTTTestSubscriber.probeTopic)\n").write(
      toFile: dir.file("acl"), atomically: true, encoding: .utf8)
    return try await MQTTTestBroker(
      in: dir,
      settings: Self.keepUser
        + "allow_anonymous false\npassword_file \(passwd)\nacl_file \(dir.file("acl"))\n")
  }

  static func writeSecret(_ text: String, to path: String, mode: mode_t = 0o600) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, mode)
  }

  /// A 3-rep set in about 6 s at `--speed 2`: long enough for the broker
  /// to refuse the daemon more than once.
  static func setStream(in dir: ScratchDirectory) throws -> String {
    var stream = SquatStream()
    stream.still(1)
    stream.reps(3)
    stream.still(3)
    let path = dir.file("set.lbs")
    try stream.write(to: path)
    return path
  }

  /// Wrong password: one clear log line, retries with backoff (the broker
  /// sees several attempts), never an exit; the report is written.
  @Test func wrongPasswordIsOneLogLineAndRetries() async throws {
    let dir = ScratchDirectory()
    let broker = try await Self.passwordBroker(in: dir)
    try Self.writeSecret("wrong\n", to: dir.file("pw"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(try Self.setStream(in: dir))", "--speed", "1", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)",
        "--rack", "r6", "--mqtt-username", "r6", "--mqtt-password-file", dir.file("pw"),
      ], in: dir, name: "liftbuddyd")
    await daemon.expectExit(within: 60)
    #expect(jsonFiles(in: dir.file("lifts")).count == 1)
    let refusal =
      "MQTT broker 127.0.0.1:\(broker.port): the broker refused the connection: Connection Refused: not authorised.; retrying"
    #expect(daemon.stderr.components(separatedBy: refusal).count == 2, "\(daemon.stderr)")
    // libmosquitto's backoff: 1 s, then 4 s.
    let attempts =
      broker.process.stderr.components(separatedBy: "disconnected, not authorised")
      .count - 1
    #expect(attempts >= 2, "\(broker.process.stderr)")
    await broker.stop()
  }

  /// The right password, handed over as systemd does (`LoadCredential=`:
  /// a file of the service's own in `$CREDENTIALS_DIRECTORY`): the coach,
  /// who reads every rack by the ACL, gets the report byte for byte.
  @Test func passwordFromSystemdCredentialGetsIn() async throws {
    let dir = ScratchDirectory()
    let broker = try await Self.passwordBroker(in: dir)
    let coach = try MQTTTestSubscriber(
      in: dir, port: broker.port, options: ["-u", "coach", "-P", "coachpw"])
    try await coach.waitUntilSubscribed()
    let credentials = dir.file("credentials")
    try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
    try Self.writeSecret("secret\n", to: credentials + "/mqtt-password", mode: 0o400)
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(MQTTTests.stream)", "--speed", "max", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)",
        "--rack", "r6", "--mqtt-username", "r6",
      ], in: dir, name: "liftbuddyd", environment: ["CREDENTIALS_DIRECTORY": credentials])
    await daemon.expectExit(within: 30)
    let file = try #require(jsonFiles(in: dir.file("lifts")).first)
    #expect(await waitUntil(timeout: 20) { !coach.messages(on: "liftbuddy/r6/lift").isEmpty })
    #expect(
      coach.messages(on: "liftbuddy/r6/lift").map(\.payload)
        == [Array(try Data(contentsOf: URL(fileURLWithPath: file)))])
    #expect(daemon.stderr.contains("MQTT: connected to 127.0.0.1:\(broker.port) as liftbuddyd-r6"))
    // No sample class unless asked for.
    #expect(coach.messages(on: "liftbuddy/r6/sample").isEmpty)
    await coach.stop()
    await broker.stop()
  }

  /// A password file other users may read, a symlink, a password without
  /// a user name: one line and EX_CONFIG, before anything starts.
  @Test func secretFilesOthersCanReadAreRefused() async throws {
    let dir = ScratchDirectory()
    try Self.writeSecret("secret\n", to: dir.file("open"), mode: 0o644)
    try Self.writeSecret("secret\n", to: dir.file("closed"), mode: 0o600)
    symlink(dir.file("closed"), dir.file("link"))
    let base = [
      "--source", "replay:\(MQTTTests.stream)", "--speed", "max", "--output-dir",
      dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:1",
    ]
    for (extra, said) in [
      (
        ["--mqtt-username", "r6", "--mqtt-password-file", dir.file("open")],
        "\(dir.file("open")) is readable by every user (mode 644)"
      ),
      (
        ["--mqtt-username", "r6", "--mqtt-password-file", dir.file("link")],
        "\(dir.file("link")) is a symlink"
      ),
      (["--mqtt-password-file", dir.file("closed")], "a password needs a user name"),
      (["--mqtt-cert-file", dir.file("closed")], "a client certificate needs its key"),
    ] {
      let daemon = try DaemonChild(Binaries.liftbuddyd, base + extra, in: dir, name: "refused")
      #expect(await daemon.wait(timeout: 20) == 78, "\(daemon.stderr)")
      let lines = daemon.stderr.split(separator: "\n")
      #expect(lines.count == 1 && lines[0].contains(said), "\(daemon.stderr)")
    }
  }

  /// The ACL of docs/mqtt.md, as it is written there: the coach's command
  /// reaches the rack and is answered; the same from the wall screen's
  /// user, who may only read, never reaches it.
  @Test func onlyTheCoachSteersByTheDocumentedACL() async throws {
    let dir = ScratchDirectory()
    let broker = try await Self.documentedACLBroker(in: dir)
    let coach = try MQTTTestSubscriber(
      in: dir, port: broker.port, options: ["-u", "coach", "-P", "coachpw"])
    try await coach.waitUntilSubscribed()
    let wall = try MQTTTestSubscriber(
      in: dir, port: broker.port, name: "wall", options: ["-u", "wall", "-P", "wallpw"])
    try Self.writeSecret("secret\n", to: dir.file("pw"))
    var stream = SquatStream()
    stream.still(40)
    try stream.write(to: dir.file("still.lbs"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("still.lbs"))", "--output-dir", dir.file("lifts"),
        "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)", "--rack", "r6",
        "--mqtt-username", "r6", "--mqtt-password-file", dir.file("pw"), "--mqtt-commands",
      ], in: dir, name: "liftbuddyd")
    #expect(await daemon.waitFor(timeout: 20) { daemon.stderr.contains("MQTT: connected") })
    let replies = { coach.messages(on: "liftbuddy/r6/reply").compactMap(\.json) }
    #expect(
      await waitUntil(timeout: 10) {
        try? coach.send(#"{"cmd":"set","exercise":"deadlift"}"#, on: "liftbuddy/r6/cmd")
        return await waitUntil(timeout: 0.3) { !replies().isEmpty }
      })
    #expect(replies().first?["class"] as? String == "ack")
    let answered = replies().count
    try wall.send(#"{"cmd":"end_set"}"#, on: "liftbuddy/r6/cmd")
    try coach.send(#"{"cmd":"status"}"#, on: "liftbuddy/r6/cmd")
    // The coach's status comes back; nothing before it answered the wall.
    #expect(await waitUntil(timeout: 10) { replies().count > answered })
    #expect(replies().count == answered + 1)
    #expect(replies().last?["class"] as? String == "status")
    // The wall reads every rack.
    #expect(!wall.messages(on: "liftbuddy/r6/status").isEmpty)
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
    #expect(!daemon.stderr.contains("end_set"), "\(daemon.stderr)")
    await wall.stop()
    await coach.stop()
    await broker.stop()
  }

  /// By the documented ACL, a rack's user publishes its retained
  /// `last_lift`; the coach and the wall, subscribing after the set, get
  /// it; the coach cannot clear it, `admin` can, with the documented
  /// `mosquitto_pub -r -n` (and the rack's retained status stays).
  @Test func lastLiftIsWrittenByItsRackReadByTheCoachAndClearedByAdmin() async throws {
    let dir = ScratchDirectory()
    let broker = try await Self.documentedACLBroker(in: dir)
    try Self.writeSecret("secret\n", to: dir.file("pw"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(try Self.setStream(in: dir))", "--speed", "max", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)",
        "--rack", "r6", "--mqtt-username", "r6", "--mqtt-password-file", dir.file("pw"),
      ], in: dir, name: "liftbuddyd")
    await daemon.expectExit(within: 30)
    let file = try #require(jsonFiles(in: dir.file("lifts")).first)
    let report = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
    func lateReader(_ user: String, _ password: String, name: String) async throws
      -> MQTTTestSubscriber
    {
      let reader = try MQTTTestSubscriber(
        in: dir, port: broker.port, filter: "liftbuddy/+/last_lift", name: name,
        options: ["-u", user, "-P", password])
      #expect(await waitUntil(timeout: 20) { !reader.messages.isEmpty }, "\(name)")
      #expect(reader.messages.map(\.retained) == [true], "\(name)")
      #expect(reader.messages.first?.payload == report, "\(name)")
      return reader
    }
    for reader in [
      try await lateReader("coach", "coachpw", name: "coach"),
      try await lateReader("wall", "wallpw", name: "wall"),
    ] { await reader.stop() }

    let publisher = try #require(MQTTTestBroker.publisher)
    func clear(as user: String, _ password: String) throws {
      try run(
        publisher,
        [
          "-h", "127.0.0.1", "-p", "\(broker.port)", "-u", user, "-P", password, "-r", "-n", "-t",
          "liftbuddy/r6/last_lift",
        ])
    }
    try clear(as: "coach", "coachpw")
    try await lateReader("coach", "coachpw", name: "after-coach").stop()
    try clear(as: "admin", "adminpw")
    let after = try MQTTTestSubscriber(
      in: dir, port: broker.port, name: "after-admin", options: ["-u", "coach", "-P", "coachpw"])
    try await after.waitUntilSubscribed()
    #expect(after.messages(on: "liftbuddy/r6/last_lift").isEmpty)
    #expect(after.messages(on: "liftbuddy/r6/status").map(\.retained) == [true])
    await after.stop()
    await broker.stop()
  }

  /// `liftbuddy coach` gets into a broker that checks passwords as the
  /// ACL's `coach` user, and its room then shows the rack; with a wrong
  /// password it says so and shows nothing; a password file others can
  /// read is refused at start, in one line.
  @Test func theCoachLogsInAsItsOwnUser() async throws {
    let dir = ScratchDirectory()
    let broker = try await Self.passwordBroker(in: dir)
    try Self.writeSecret("secret\n", to: dir.file("pw"))
    try Self.writeSecret("coachpw\n", to: dir.file("coach-pw"))
    try Self.writeSecret("nope\n", to: dir.file("wrong-pw"))
    try Self.writeSecret("coachpw\n", to: dir.file("open-pw"), mode: 0o644)
    func coach(_ passwordFile: String, web: Int) throws -> DaemonChild {
      try DaemonChild(
        Binaries.liftbuddy,
        [
          "coach", "--mqtt", "127.0.0.1:\(broker.port)", "--mqtt-username", "coach",
          "--mqtt-password-file", passwordFile, "--listen", "127.0.0.1:\(web)",
        ], in: dir, name: "coach-\(web)")
    }
    let refused = try coach(dir.file("open-pw"), web: freeLoopbackPort())
    #expect(await refused.wait(timeout: 10) != 0)
    #expect(refused.stderr.contains("mqtt_password_file"), "\(refused.stderr)")
    let wrong = try coach(dir.file("wrong-pw"), web: freeLoopbackPort())
    #expect(
      await wrong.waitFor(timeout: 20) { wrong.stderr.contains("not authorised") },
      "\(wrong.stderr)")
    #expect(!wrong.stderr.contains("coach: connected"))
    let web = freeLoopbackPort()
    let right = try coach(dir.file("coach-pw"), web: web)
    #expect(
      await right.waitFor(timeout: 20) { right.stderr.contains("coach: connected") },
      "\(right.stderr)")
    let rack = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(try Self.setStream(in: dir))", "--speed", "max", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)",
        "--rack", "r6", "--mqtt-username", "r6", "--mqtt-password-file", dir.file("pw"),
      ], in: dir, name: "rack")
    await rack.expectExit(within: 30)
    let seen =
      await CoachViewTests.roomEvent(port: web) { o in
        o["rack"] as? String == "r6" && o["reps"] as? Int == 3
      } != nil
    #expect(seen, "\(right.stderr)")
    for child in [wrong, right] { child.signal(SIGTERM) }
    await right.expectExit(within: 10)
    _ = await wrong.wait(timeout: 10)
    await broker.stop()
  }

  /// TLS with a client certificate (the broker takes its CN as the user):
  /// the report arrives; a daemon that trusts another CA says the TLS
  /// handshake failed, and why, while it writes its report as ever.
  @Test(.enabled(if: TestPKI.isAvailable, "openssl is not installed (scripts/setup.sh)"))
  func tlsWithClientCertificate() async throws {
    let dir = ScratchDirectory()
    let pki = try TestPKI(in: dir, clients: ["r7", "coach"])
    let broker = try await MQTTTestBroker(
      in: dir,
      settings: Self.keepUser
        + "cafile \(pki.ca)\ncertfile \(pki.serverCert)\nkeyfile \(pki.serverKey)\nrequire_certificate true\nuse_identity_as_username true\nallow_anonymous false\n"
    )
    let coach = try MQTTTestSubscriber(
      in: dir, port: broker.port,
      options: ["--cafile", pki.ca, "--cert", pki.cert("coach"), "--key", pki.key("coach")])
    try await coach.waitUntilSubscribed()
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(MQTTTests.stream)", "--speed", "max", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(broker.port)",
        "--rack", "r7", "--mqtt-ca-file", pki.ca, "--mqtt-cert-file", pki.cert("r7"),
        "--mqtt-key-file", pki.key("r7"),
      ], in: dir, name: "liftbuddyd")
    await daemon.expectExit(within: 30)
    let file = try #require(jsonFiles(in: dir.file("lifts")).first)
    #expect(await waitUntil(timeout: 20) { !coach.messages(on: "liftbuddy/r7/lift").isEmpty })
    #expect(
      coach.messages(on: "liftbuddy/r7/lift").map(\.payload)
        == [Array(try Data(contentsOf: URL(fileURLWithPath: file)))])

    // The server's own certificate is no CA: verification fails.
    let wrong = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(try MQTTSecurityTests.setStream(in: dir))", "--speed", "1",
        "--output-dir", dir.file("lifts2"), "--socket", dir.file("d2.sock"), "--mqtt",
        "127.0.0.1:\(broker.port)", "--rack", "r7", "--mqtt-ca-file", pki.serverCert,
        "--mqtt-cert-file", pki.cert("r7"), "--mqtt-key-file", pki.key("r7"),
      ], in: dir, name: "wrong")
    await wrong.expectExit(within: 60)
    #expect(jsonFiles(in: dir.file("lifts2")).count == 1)
    // libmosquitto tells a failed handshake now by its callback, with or
    // without OpenSSL's reason, now not at all (the 5 s without an answer).
    let told =
      wrong.stderr.contains("MQTT broker 127.0.0.1:\(broker.port): the TLS connection failed")
      || wrong.stderr.contains("MQTT broker 127.0.0.1:\(broker.port): no MQTT answer within 5 s")
    #expect(told, "\(wrong.stderr)")
    #expect(wrong.stderr.split(separator: "\n").count { $0.contains("MQTT broker") } <= 3)
    #expect(!wrong.stderr.contains("MQTT: connected"))
    await coach.stop()
    await broker.stop()
  }
}

/// A CA, a server certificate for 127.0.0.1, and client certificates,
/// made by `openssl` for one test.
struct TestPKI {
  static let openssl = "/usr/bin/openssl"
  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: openssl) }
  let dir: ScratchDirectory
  var ca: String { dir.file("ca.crt") }
  var serverCert: String { dir.file("server.crt") }
  var serverKey: String { dir.file("server.key") }
  func cert(_ name: String) -> String { dir.file("\(name).crt") }
  func key(_ name: String) -> String { dir.file("\(name).key") }

  init(in dir: ScratchDirectory, clients: [String]) throws {
    self.dir = dir
    let openssl = Self.openssl
    try run(
      openssl,
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
        "/CN=LiftBuddy test CA",
        "-keyout", dir.file("ca.key"), "-out", dir.file("ca.crt"),
      ])
    try "subjectAltName=IP:127.0.0.1,DNS:localhost\n".write(
      toFile: dir.file("san.ext"), atomically: true, encoding: .utf8)
    for (name, extensions) in [("server", true)] + clients.map({ ($0, false) }) {
      try run(
        openssl,
        [
          "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=\(name)", "-keyout",
          dir.file("\(name).key"), "-out", dir.file("\(name).csr"),
        ])
      try run(
        openssl,
        [
          "x509", "-req", "-in", dir.file("\(name).csr"), "-CA", dir.file("ca.crt"), "-CAkey",
          dir.file("ca.key"), "-CAcreateserial", "-days", "2", "-out", dir.file("\(name).crt"),
        ] + (extensions ? ["-extfile", dir.file("san.ext")] : []))
      chmod(dir.file("\(name).key"), 0o600)
    }
  }
}

/// Runs a tool to completion; throws when it fails.
func run(_ executable: String, _ arguments: [String]) throws {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: executable)
  p.arguments = arguments
  p.standardOutput = FileHandle.nullDevice
  p.standardError = FileHandle.nullDevice
  try p.run()
  p.waitUntilExit()
  try #require(p.terminationStatus == 0, "\(executable) \(arguments.joined(separator: " ")) failed")
}
