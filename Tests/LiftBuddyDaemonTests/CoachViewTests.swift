import Foundation
import LiftBuddyCore
import Logging
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The coach's view against real servers: a Mosquitto broker on a loopback
/// port of the test's own, racks simulated by the built `liftbuddyd`
/// replaying SampleStreams with `--mqtt`, and the coach's side subscribed
/// through libmosquitto.
@Suite(
  .serialized,
  .enabled(if: MQTTTestBroker.isAvailable, "mosquitto is not installed (scripts/setup.sh)"))
struct CoachViewTests {
  /// Racks and what each replays: one, three sets, provisional reps (deadlift).
  static let racks: [(rack: String, stream: String)] = [
    ("rack-1", "squat-serial-typical.lbs"), ("rack-2", "bench_press-serial-typical.lbs"),
    ("rack-3", "squat-3sets-ble-typical.lbs"), ("rack-4", "deadlift-serial-clean.lbs"),
    ("rack-5", "overhead_press-serial-clean.lbs"),
  ]

  static func stream(_ name: String) -> String {
    Binaries.packageRoot.appendingPathComponent("SampleStreams/\(name)").path
  }

  static func feed(port: Int) -> CoachFeed {
    var logger = Logger(label: "coach-test")
    logger.logLevel = .warning
    return CoachFeed(
      configuration: CoachConfiguration(broker: MQTTBroker(host: "127.0.0.1", port: port)),
      logger: logger, update: { _, _ in })
  }

  /// Runs blocking work on a thread of its own and awaits its result.
  static func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
      Thread { continuation.resume(returning: work()) }.start()
    }
  }

  /// The first message of the room view's WebSocket (`/room/events`) whose
  /// object `matches` accepts, within 20 s; the page is opened again until
  /// the server listens. Its reads block, so they run off the test's
  /// cooperative pool (two threads here), which other suites share.
  static func roomEvent(
    port: Int, where matches: @escaping @Sendable ([String: Any]) -> Bool
  ) async -> String? {
    await offThePool {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        guard let page = try? TCPTestClient.webSocket(port: port, path: "/room/events") else {
          Thread.sleep(forTimeInterval: 0.2)
          continue
        }
        while let text = try? page.textMessage() {
          let o = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
          if let o, matches(o) { return text }
        }
      }
      return nil
    }
  }

  static func rack(
    _ name: String, stream: String, port: Int, in dir: ScratchDirectory, speed: String = "max",
    extra: [String] = []
  ) throws -> DaemonChild {
    try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(stream)", "--speed", speed, "--output-dir", dir.file(name),
        "--socket", dir.file("\(name).sock"), "--mqtt", "127.0.0.1:\(port)", "--rack", name,
      ] + extra, in: dir, name: name)
  }

  /// Five racks replay at once; the room then holds, for each, its last
  /// set as that set's report file has it: the set's id, exercise and load,
  /// its reps, the last rep's mean velocity, the velocity loss, and every
  /// report once; each rack offline after its clean stop.
  @Test func roomHoldsEveryRacksLastSetAsItsReportFileHasIt() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let feed = Self.feed(port: broker.port)
    #expect(await waitUntil(timeout: 20) { feed.isConnected })
    let daemons = try Self.racks.map {
      try Self.rack($0.rack, stream: Self.stream($0.stream), port: broker.port, in: dir)
    }
    for d in daemons { await d.expectExit(within: 60) }

    var reportsByRack: [String: [LiftReport]] = [:]
    for (rack, _) in Self.racks {
      reportsByRack[rack] = try jsonFiles(in: dir.file(rack)).map {
        try JSONDecoder().decode(LiftReport.self, from: Data(contentsOf: URL(fileURLWithPath: $0)))
      }.sorted { $0.startS < $1.startS }
    }
    let settled = await waitUntil(timeout: 20) {
      let room = feed.room
      return Self.racks.allSatisfy {
        room.racks[$0.rack]?.online == false
          && room.racks[$0.rack]?.lifts == reportsByRack[$0.rack]?.count
      }
    }
    let room = feed.room
    #expect(settled, "\(room.racks.mapValues { ($0.online, $0.lifts) })")
    #expect(room.racks.count == Self.racks.count)
    #expect(reportsByRack["rack-3"]?.count == 3)
    for (name, _) in Self.racks {
      let rack = try #require(room.racks[name])
      let last = try #require(reportsByRack[name]?.last, "\(name) wrote no report")
      #expect(rack.set?.setID == last.id && rack.set?.finished == true, "\(name)")
      #expect(rack.set?.exercise == last.exercise && rack.set?.loadKg == last.loadKg, "\(name)")
      #expect(rack.finalReps == last.reps.count && rack.provisionalReps == 0, "\(name)")
      #expect(rack.lastRepMeanVelocityMps == last.reps.last?.meanVelocityMps, "\(name)")
      #expect(rack.velocityLossPct == last.summary.velocityLossPct, "\(name)")
      #expect(rack.lastLift?.summary == last.summary, "\(name)")
      #expect(rack.lifts == reportsByRack[name]?.count, "\(name)")
      let status = try #require(
        rack.status.flatMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] })
      #expect(status["message"] as? String == "liftbuddyd stopped", "\(name)")
    }
    #expect(room.counts.duplicates == 0 && room.counts.unreadable == 0)
    // Each report's retained copy followed it, and was known already.
    let reportCount = reportsByRack.values.map(\.count).reduce(0, +)
    #expect(await waitUntil(timeout: 20) { feed.room.counts.copiesKnown == reportCount })
    #expect(feed.room.counts.recalled == 0)
    #expect(feed.room.racks.values.allSatisfy { $0.lastLift?.recalled == false })

    // The same report again (a rack that restarted before clearing its
    // queue): dropped by report id.
    let file = try #require(jsonFiles(in: dir.file("rack-1")).first)
    let pub = try DaemonChild(
      try #require(MQTTTestBroker.publisher),
      [
        "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", "liftbuddy/rack-1/lift", "-f",
        file,
      ], in: dir, name: "pub")
    await pub.expectExit(within: 10)
    #expect(await waitUntil(timeout: 20) { feed.room.counts.duplicates == 1 })
    #expect(feed.room.racks["rack-1"]?.lifts == 1)
    await feed.close()
    await broker.stop()
  }

  /// A rack's daemon killed outright: the broker publishes its last will,
  /// and the room shows the rack offline, with the will's words.
  @Test func killedRackShowsOfflineThroughItsLastWill() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let feed = Self.feed(port: broker.port)
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(120)
    try stream.write(to: dir.file("set.lbs"))
    // At twice the pace: the kill comes well inside the set's rest.
    let daemon = try Self.rack(
      "rack-9", stream: dir.file("set.lbs"), port: broker.port, in: dir, speed: "2")
    let lifting = await waitUntil(timeout: 30) {
      let rack = feed.room.racks["rack-9"]
      return rack?.online == true && rack?.finalReps == 2
    }
    #expect(lifting, "\(daemon.stderr)")
    daemon.signal(SIGKILL)
    _ = await daemon.wait(timeout: 10)
    let offline = await waitUntil(timeout: 20) {
      feed.room.racks["rack-9"]?.online == false
    }
    #expect(offline)
    let rack = try #require(feed.room.racks["rack-9"])
    let status = String(decoding: rack.status ?? [], as: UTF8.self)
    #expect(status.contains("without a goodbye"), "\(status)")
    // What was known of its set stays on the coach's screen.
    #expect(rack.finalReps == 2 && rack.set?.finished == false)
    await feed.close()
    await broker.stop()
  }

  /// A coach who starts after the racks have gone sees each one's retained
  /// status at once; one started before the broker connects when it comes.
  @Test func coachStartedBeforeTheBrokerConnectsWhenItComes() async throws {
    let dir = ScratchDirectory()
    let port = freeLoopbackPort()
    let feed = Self.feed(port: port)
    try await Task.sleep(for: .milliseconds(500))
    #expect(!feed.isConnected)
    let broker = try await MQTTTestBroker(in: dir, port: port)
    #expect(await waitUntil(timeout: 30) { feed.isConnected })
    let daemon = try Self.rack(
      "rack-7", stream: Self.stream("squat-serial-typical.lbs"), port: port, in: dir)
    await daemon.expectExit(within: 60)
    #expect(await waitUntil(timeout: 20) { feed.room.racks["rack-7"]?.online == false })
    await feed.close()

    let late = Self.feed(port: port)
    #expect(await waitUntil(timeout: 20) { late.room.racks["rack-7"]?.online == false })
    await late.close()
    await broker.stop()
  }

  /// The newest report file of each rack, by the set's start.
  static func newestReport(in directory: String) throws -> LiftReport? {
    try jsonFiles(in: directory).map { try LiftReport.decode(path: $0) }.max {
      $0.startS < $1.startS
    }
  }

  /// A coach who comes in after the racks' sets (the racks idle, here gone)
  /// sees each rack's last set at once, from its retained `last_lift`: the
  /// one set of one rack, the third of three of the other; marked
  /// recalled, not a set that has just ended. The room view's page (`liftbuddy
  /// coach`'s server) gets the same numbers.
  @Test func coachArrivingAfterTheSetsSeesEachRacksLastSet() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let racks = [("rack-1", "squat-serial-typical.lbs"), ("rack-3", "squat-3sets-ble-typical.lbs")]
    let daemons = try racks.map {
      try Self.rack($0.0, stream: Self.stream($0.1), port: broker.port, in: dir)
    }
    for d in daemons { await d.expectExit(within: 60) }
    var last: [String: LiftReport] = [:]
    for (rack, _) in racks {
      let newest: LiftReport = try #require(try Self.newestReport(in: dir.file(rack)))
      last[rack] = newest
    }
    #expect(jsonFiles(in: dir.file("rack-3")).count == 3)

    let feed = Self.feed(port: broker.port)
    let shown = await waitUntil(timeout: 20) {
      let room = feed.room
      return racks.allSatisfy { room.racks[$0.0]?.lastLift != nil }
    }
    let room = feed.room
    #expect(shown, "\(room.racks.mapValues(\.lastLift))")
    for (name, _) in racks {
      let rack = try #require(room.racks[name])
      let report = try #require(last[name])
      #expect(rack.lastLift?.id == report.id && rack.lastLift?.recalled == true, "\(name)")
      #expect(rack.lastLift?.summary == report.summary, "\(name)")
      #expect(rack.set?.setID == report.id && rack.set?.finished == true, "\(name)")
      #expect(rack.set?.number == nil, "\(name)")
      #expect(rack.set?.exercise == report.exercise && rack.set?.loadKg == report.loadKg, "\(name)")
      #expect(rack.finalReps == report.reps.count && rack.provisionalReps == 0, "\(name)")
      #expect(rack.velocityLossPct == report.summary.velocityLossPct, "\(name)")
      #expect(rack.lifts == 0 && rack.online == false, "\(name)")
    }
    #expect(room.counts.recalled == 2 && room.counts.duplicates == 0)
    await feed.close()

    // The page, from `liftbuddy coach` started now.
    let web = freeLoopbackPort()
    let coach = try DaemonChild(
      Binaries.liftbuddy,
      ["coach", "--mqtt", "127.0.0.1:\(broker.port)", "--listen", "127.0.0.1:\(web)"], in: dir,
      name: "coach")
    let third = try #require(last["rack-3"])
    let found = await Self.roomEvent(port: web) { o in
      o["rack"] as? String == "rack-3" && o["last_lift"] is [String: Any]
    }
    let text = try #require(found)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    let lastLift = try #require(object["last_lift"] as? [String: Any])
    #expect(lastLift["id"] as? String == third.id && lastLift["recalled"] as? Bool == true)
    #expect(object["velocity_loss_pct"] as? Double == third.summary.velocityLossPct)
    #expect(object["reps"] as? Int == third.reps.count)
    #expect((object["set"] as? [String: Any])?["finished"] as? Bool == true)
    #expect((object["set"] as? [String: Any])?["set"] is NSNull)
    coach.signal(SIGTERM)
    await coach.expectExit(within: 10)
    await broker.stop()
  }

  /// A report a late coach recalled from its retained copy, then received
  /// live on `lift` (a rack restarted before clearing its queue sends it
  /// again), is taken once, and stays recalled; the copy again changes
  /// nothing.
  @Test func retainedCopyAndLiveReportOfOneSetAreTakenOnce() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let daemon = try Self.rack(
      "rack-1", stream: Self.stream("squat-serial-typical.lbs"), port: broker.port, in: dir)
    await daemon.expectExit(within: 60)
    let file = try #require(jsonFiles(in: dir.file("rack-1")).first)
    let report = try LiftReport.decode(path: file)
    let feed = Self.feed(port: broker.port)
    #expect(await waitUntil(timeout: 20) { feed.room.racks["rack-1"]?.lastLift != nil })
    #expect(feed.room.racks["rack-1"]?.lastLift?.id == report.id)

    for (topic, retain) in [("lift", false), ("last_lift", true)] {
      let pub = try DaemonChild(
        try #require(MQTTTestBroker.publisher),
        [
          "-h", "127.0.0.1", "-p", "\(broker.port)", "-q", "1", "-t", "liftbuddy/rack-1/\(topic)",
          "-f", file,
        ] + (retain ? ["-r"] : []), in: dir, name: "pub-\(topic)")
      await pub.expectExit(within: 10)
    }
    #expect(
      await waitUntil(timeout: 20) {
        feed.room.counts.duplicates == 1 && feed.room.counts.copiesKnown == 1
      }, "\(feed.room.counts)")
    let rack = try #require(feed.room.racks["rack-1"])
    #expect(feed.room.counts.recalled == 1)
    #expect(rack.lifts == 0 && rack.lastLift?.recalled == true && rack.lastLift?.id == report.id)
    #expect(rack.finalReps == report.reps.count)
    await feed.close()
    await broker.stop()
  }

  /// `liftbuddyd --coach` serves the room view beside its own page: a room
  /// page (`/room/events`) opened after the other rack's set gets that
  /// rack's object at once, with its last rep as the rack published it.
  @Test func daemonWithCoachServesTheRoomView() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    var still = SquatStream()
    still.still(60)
    try still.write(to: dir.file("still.lbs"))
    let web = freeLoopbackPort()
    let coach = try Self.rack(
      "coach-rack", stream: dir.file("still.lbs"), port: broker.port, in: dir, speed: "1",
      extra: ["--coach", "--http", "127.0.0.1:\(web)"])
    #expect(await coach.waitFor(timeout: 20) { coach.stderr.contains("coach: connected") })
    let other = try Self.rack(
      "rack-1", stream: Self.stream("squat-serial-typical.lbs"), port: broker.port, in: dir)
    await other.expectExit(within: 60)
    let report = try LiftReport.decode(path: try #require(jsonFiles(in: dir.file("rack-1")).first))

    let found = await Self.roomEvent(port: web) { o in
      o["rack"] as? String == "rack-1" && o["online"] as? Bool == false
    }
    let arrived = found != nil
    let object = found.flatMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(arrived, "\(coach.stderr)")
    let lastRep = object?["last_rep"] as? [String: Any]
    #expect(
      (lastRep?["rep"] as? [String: Any])?["mean_velocity_mps"] as? Double
        == report.reps.last?.meanVelocityMps)
    #expect(object?["reps"] as? Int == report.reps.count)
    let page = await Self.offThePool { try? TCPTestClient.request(port: web, get: "/room") }
    #expect(page?.status == 200 && page?.body.contains("/room.js") == true)
    coach.signal(SIGTERM)
    await coach.expectExit(within: 10)
    await broker.stop()
  }

  /// `coach` without a broker or a page to show the room on is refused at
  /// start, naming what is missing.
  @Test func coachWithoutMQTTOrHTTPIsRefused() async throws {
    let dir = ScratchDirectory()
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:x.lbs", "--coach", "--mqtt", "127.0.0.1", "--output-dir", dir.file("l"),
      ],
      in: dir)
    await daemon.expectExit(DaemonRunner.exitConfigurationError, within: 10)
    #expect(daemon.stderr.contains("'coach'"), "\(daemon.stderr)")
    #expect(daemon.stderr.contains("give mqtt and http too"), "\(daemon.stderr)")
  }
}

extension LiftReport {
  static func decode(path: String) throws -> LiftReport {
    try JSONDecoder().decode(LiftReport.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
