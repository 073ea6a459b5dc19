import Foundation
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The coach's commands on `<prefix>/<rack>/cmd` and the `sample` class,
/// through a real Mosquitto, to the built daemon.
@Suite(
  .serialized,
  .enabled(if: MQTTTestBroker.isAvailable, "mosquitto is not installed (scripts/setup.sh)"))
struct MQTTCommandTests {
  /// `set` before the set, `end_set` after its reps (well within the set's
  /// rest): the report comes at once with the coach's exercise and load,
  /// before the `ack`; a bad command gets the socket parser's own message;
  /// samples come at most `sample_rate_hz` a second.
  @Test func coachSetsTheNextSetAndEndsIt() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let coach = try MQTTTestSubscriber(in: dir, port: broker.port)
    try await coach.waitUntilSubscribed()
    var stream = SquatStream()
    stream.still(3)
    stream.reps(3)
    stream.still(30)
    try stream.write(to: dir.file("set.lbs"))
    try "sample_rate_hz = 4\n".write(
      toFile: dir.file("d.conf"), atomically: true, encoding: .utf8)
    let started = Date()
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--config", dir.file("d.conf"), "--source", "replay:\(dir.file("set.lbs"))", "--speed",
        "1", "--output-dir", dir.file("lifts"), "--socket", dir.file("d.sock"), "--mqtt",
        "127.0.0.1:\(broker.port)", "--rack", "r8", "--mqtt-commands", "--mqtt-samples",
      ], in: dir, name: "liftbuddyd")
    #expect(await daemon.waitFor(timeout: 20) { daemon.stderr.contains("MQTT: connected") })
    let cmd = "liftbuddy/r8/cmd"
    let replies = { coach.messages(on: "liftbuddy/r8/reply").compactMap(\.json) }
    // The subscription follows the connection: send until it is in force.
    #expect(
      await waitUntil(timeout: 10) {
        try? coach.send(#"{"cmd":"set","exercise":"deadlift","load_kg":140}"#, on: cmd)
        return await waitUntil(timeout: 0.3) { !replies().isEmpty }
      })
    #expect(replies().first?["class"] as? String == "ack")
    #expect(replies().first?["cmd"] as? String == "set")

    #expect(await waitUntil(timeout: 20) { coach.messages(on: "liftbuddy/r8/rep").count == 3 })
    try coach.send(#"{"cmd":"end_set"}"#, on: cmd)
    #expect(
      await waitUntil(timeout: 5) { replies().contains { $0["cmd"] as? String == "end_set" } })
    let lift = try #require(coach.messages(on: "liftbuddy/r8/lift").first?.json)
    #expect(lift["exercise"] as? String == "deadlift")
    #expect(lift["load_kg"] as? Double == 140)
    // Ended by the command, long before the set's 12 s rest would have.
    let limit: Double = 3 + 3 * 2.4 + 10
    #expect(Date().timeIntervalSince(started) < limit)
    let order = coach.messages.map(\.topic).filter {
      $0.hasSuffix("/lift") || $0.hasSuffix("/reply")
    }
    #expect(Array(order.suffix(2)) == ["liftbuddy/r8/lift", "liftbuddy/r8/reply"])

    let before = replies().count
    try coach.send(#"{"cmd":"set","load_kg":-5}"#, on: cmd)
    try coach.send(#"{"cmd":"watch"}"#, on: cmd)
    try coach.send("not json", on: cmd)
    #expect(await waitUntil(timeout: 5) { replies().count == before + 3 })
    let errors = replies().suffix(3)
    #expect(errors.allSatisfy { $0["class"] as? String == "error" })
    let messages: [String] = errors.map { $0["message"] as? String ?? "" }
    let expected: [String] = [
      #""load_kg" must be from 0 to 1000 (kg), or null"#,
      "watch is for the socket; over MQTT: set, start_set, end_set, status (events are on liftbuddy/r8/#)",
      "not a JSON object: commands are one JSON object per line",
    ]
    #expect(messages == expected)

    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
    // Counted: the `set`s (sent until the subscription was in force) and `end_set`; the 3 refused.
    #expect(daemon.stderr.contains("MQTT: commands from liftbuddy/r8/cmd answered="))
    #expect(daemon.stderr.contains(" refused=3\n"), "\(daemon.stderr)")
    let elapsed = Date().timeIntervalSince(started)
    let samples = coach.messages(on: "liftbuddy/r8/sample").compactMap(\.json)
    #expect(samples.count >= 8, "\(samples.count) samples in \(elapsed) s")
    #expect(Double(samples.count) <= 4 * elapsed + 1, "\(samples.count) samples in \(elapsed) s")
    #expect(samples.allSatisfy { $0["class"] as? String == "sample" })
    await coach.stop()
    await broker.stop()
  }

  /// SIGHUP reads the MQTT keys again but applies none: it says they need a restart.
  @Test func reloadSaysMQTTKeysNeedARestart() throws {
    let a = DaemonConfiguration()
    var b = a
    try b.set("mqtt_commands", to: "true")
    try b.set("mqtt_username", to: "rack-3")
    try b.set("mqtt", to: "broker.local:8883")
    #expect(
      ReloadService.restartOnlyChanges(from: a, to: b) == [
        "mqtt", "mqtt_username", "mqtt_commands",
      ])
  }

  /// Off by default: nothing is subscribed, nothing answered.
  @Test func commandsAreOffUnlessAsked() throws {
    var c = DaemonConfiguration()
    try c.set("mqtt", to: "127.0.0.1")
    try c.set("rack", to: "r9")
    let off = try #require(
      try MQTTConfiguration.make(from: c, environment: [:], source: "s", spoolDirectory: nil))
    #expect(!off.commands && off.sampleRateHz == nil && off.credentials == nil && off.tls == nil)
    try c.set("mqtt_commands", to: "true")
    try c.set("mqtt_samples", to: "yes")
    try c.set("sample_rate_hz", to: "5")
    try c.set("mqtt_tls", to: "on")
    let on = try #require(
      try MQTTConfiguration.make(from: c, environment: [:], source: "s", spoolDirectory: nil))
    #expect(on.commands && on.sampleRateHz == 5)
    #expect(on.tls == MQTTTLS())
    #expect(on.topics.command == "liftbuddy/r9/cmd" && on.topics.reply == "liftbuddy/r9/reply")
  }
}
