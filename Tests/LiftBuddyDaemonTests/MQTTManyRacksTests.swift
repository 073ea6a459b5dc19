import Foundation
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Many daemons (the built binary), each replaying a SampleStreams
/// recording at full speed, publish at once to one Mosquitto; one
/// subscriber receives every rep and every report exactly once, in order
/// per rack. 5 racks by default: 20 (`LIFTBUDDY_MQTT_RACKS=20`, the issue's
/// number) take about 10 s on two cores but load them enough to upset the
/// timing of other suites running beside this one.
@Suite(
  .serialized,
  .enabled(if: MQTTTestBroker.isAvailable, "mosquitto is not installed (scripts/setup.sh)"))
struct MQTTManyRacksTests {
  static let racks =
    ProcessInfo.processInfo.environment["LIFTBUDDY_MQTT_RACKS"].flatMap(Int.init) ?? 5

  /// Recordings with sets (the edge cases have none).
  static var streams: [String] {
    let dir = Binaries.packageRoot.appendingPathComponent("SampleStreams").path
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
      .filter { $0.hasSuffix(".lbs") && !$0.hasPrefix("edge-") }.sorted().map { dir + "/" + $0 }
  }

  @Test func everyRepAndReportOnceInOrderPerRack() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let coach = try MQTTTestSubscriber(in: dir, port: broker.port)
    try await coach.waitUntilSubscribed()
    let streams = Self.streams
    try #require(!streams.isEmpty)
    let daemons = try (0..<Self.racks).map { i in
      try DaemonChild(
        Binaries.liftbuddyd,
        [
          "--source", "replay:\(streams[i % streams.count])", "--speed", "max", "--output-dir",
          dir.file("lifts-\(i)"), "--socket", dir.file("d\(i).sock"), "--mqtt",
          "127.0.0.1:\(broker.port)", "--rack", "rack-\(i)", "--log-level", "warning",
        ], in: dir, name: "rack-\(i)")
    }
    for daemon in daemons {
      await daemon.expectExit(within: 120)
    }
    for i in 0..<Self.racks {
      let expected = try Self.expectedSequence(reports: jsonFiles(in: dir.file("lifts-\(i)")))
      #expect(!expected.isEmpty)
      let arrived = await waitUntil(timeout: 30) {
        Self.receivedSequence(coach.messages, rack: "rack-\(i)").count >= expected.count
      }
      #expect(arrived, "rack-\(i)")
      let received = Self.receivedSequence(coach.messages, rack: "rack-\(i)")
      // Every rep once; reports deduplicated by id as a coach does (a report
      // acknowledged just before a crash may come twice; none does here).
      #expect(received == expected, "rack-\(i): \(streams[i % streams.count])")
      let lifts = coach.messages(on: "liftbuddy/rack-\(i)/lift")
      #expect(Set(lifts.compactMap { $0.json?["id"] as? String }).count == lifts.count)
      // Byte for byte the rack's files.
      let files = try jsonFiles(in: dir.file("lifts-\(i)")).map {
        Array(try Data(contentsOf: URL(fileURLWithPath: $0)))
      }
      #expect(Set(lifts.map(\.payload)) == Set(files))
    }
    let total = coach.messages.filter { $0.topic.hasSuffix("/rep") || $0.topic.hasSuffix("/lift") }
    print("MQTT: \(Self.racks) racks, \(total.count) reps and reports received")
    await coach.stop()
    await broker.stop()
  }

  /// `rep <set>.<index>` and `lift <set>`, in the order a rack's reports say
  /// they happened: each set's reps, then its report.
  static func expectedSequence(reports: [String]) throws -> [String] {
    try reports.map { path -> (Int, [String]) in
      let report = try reportObject(path)
      let id = try #require(report["id"] as? String)
      let set = try #require(Int(id.split(separator: "-").last ?? ""))
      let reps = (report["reps"] as? [[String: Any]] ?? []).compactMap { $0["index"] as? Int }
      return (set, reps.map { "rep \(set).\($0)" } + ["lift \(set)"])
    }.sorted { $0.0 < $1.0 }.flatMap(\.1)
  }

  /// The same from what a subscriber received, reports deduplicated by id.
  static func receivedSequence(_ messages: [MQTTTestSubscriber.Message], rack: String) -> [String] {
    var seen: Set<String> = []
    return messages.compactMap { message in
      guard let json = message.json else { return nil }
      switch message.topic {
      case "liftbuddy/\(rack)/rep":
        guard let set = json["set"] as? Int,
          let index = (json["rep"] as? [String: Any])?["index"] as? Int
        else { return "bad rep" }
        return "rep \(set).\(index)"
      case "liftbuddy/\(rack)/lift":
        guard let id = json["id"] as? String, seen.insert(id).inserted else { return nil }
        return "lift \(id.split(separator: "-").last ?? "")"
      default: return nil
      }
    }
  }
}
