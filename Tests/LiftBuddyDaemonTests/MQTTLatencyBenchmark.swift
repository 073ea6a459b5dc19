import Foundation
import LiftBuddyCore
import Logging
import Testing

@testable import LiftBuddyDaemon

/// Latency from `MQTTSink.publish` of a rep to its arrival at a subscriber
/// (`mosquitto_sub`, which stamps each message as it reads it) through a
/// real Mosquitto broker on loopback, with 1 rack and with 20 racks (one
/// sink, one libmosquitto client and one connection each) publishing at
/// once, in the same run. Opt-in (it takes a while): `scripts/bench-mqtt.sh
/// latency`, or `LIFTBUDDY_MQTT_BENCH=1 swift test --filter MQTTLatencyBenchmark`.
@Suite("MQTT latency benchmark", .serialized)
struct MQTTLatencyBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let enabled = environment["LIFTBUDDY_MQTT_BENCH"] == "1" && MQTTTestBroker.isAvailable
  /// Reps each rack publishes.
  static let events = environment["LIFTBUDDY_MQTT_BENCH_EVENTS"].flatMap(Int.init) ?? 500
  /// Rack counts to measure, in this order.
  static let rackCounts =
    (environment["LIFTBUDDY_MQTT_BENCH_RACKS"] ?? "1,20").split(separator: ",").compactMap {
      Int($0)
    }
  /// Between rounds, in each of which every rack publishes one rep: 50 reps
  /// a second per rack, far denser than a gym's one every few seconds.
  static let spacingMilliseconds =
    environment["LIFTBUDDY_MQTT_BENCH_SPACING_MS"].flatMap(Int.init) ?? 20

  @Test(.enabled(if: enabled)) func publishToSubscriberLatency() async throws {
    for racks in Self.rackCounts { try await measure(racks: racks) }
  }

  func measure(racks: Int) async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let probe = try MQTTTestSubscriber(in: dir, port: broker.port, name: "probe")
    let stamped = try DaemonChild(
      try #require(MQTTTestBroker.subscriber),
      ["-h", "127.0.0.1", "-p", "\(broker.port)", "-F", "%U %t", "-t", "liftbuddy/+/rep"], in: dir,
      name: "stamped")
    try await probe.waitUntilSubscribed()
    var logger = Logger(label: "mqtt-bench")
    logger.logLevel = .error
    let sinks = (0..<racks).map { i in
      MQTTSink(
        configuration: MQTTConfiguration(
          broker: MQTTBroker(host: "127.0.0.1", port: broker.port),
          topics: MQTTTopics(prefix: "liftbuddy", rack: "bench-\(i)"), source: "bench"),
        logger: logger)
    }
    #expect(await waitUntil(timeout: 20) { sinks.allSatisfy(\.isConnected) })
    let rep = try #require(
      try MQTTTests.sampleEvents().first { if case .rep = $0 { true } else { false } })

    var sent = [[Double]](repeating: [], count: racks)
    for _ in 0..<Self.events {
      for (i, sink) in sinks.enumerated() {
        sent[i].append(Date().timeIntervalSince1970)
        sink.publish(.analyzer(rep))
      }
      try await Task.sleep(for: .milliseconds(Self.spacingMilliseconds))
    }
    func received() -> [String: [Double]] {
      var byTopic: [String: [Double]] = [:]
      for line in stamped.stdout.split(separator: "\n") {
        let fields = line.split(separator: " ")
        guard fields.count == 2, let t = Double(fields[0]) else { continue }
        byTopic[String(fields[1]), default: []].append(t)
      }
      return byTopic
    }
    let total = racks * Self.events
    #expect(await waitUntil(timeout: 60) { received().values.map(\.count).reduce(0, +) == total })
    // QoS 0 on loopback, one connection per rack: in order per rack.
    let arrivals = received()
    var latencies: [Double] = []
    for i in 0..<racks {
      let times = arrivals["liftbuddy/bench-\(i)/rep"] ?? []
      #expect(times.count == Self.events, "rack \(i): \(times.count) of \(Self.events)")
      latencies += zip(sent[i], times).map { ($1 - $0) * 1000 }
    }
    latencies.sort()
    func percentile(_ p: Double) -> Double {
      latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }
    print(
      String(
        format:
          "MQTT publish→subscriber latency, %d racks, a rep each every %d ms, %d reps (%d lost): p50 %.2f ms, p99 %.2f ms, max %.2f ms",
        racks, Self.spacingMilliseconds, latencies.count, total - latencies.count, percentile(0.5),
        percentile(0.99),
        latencies.last ?? 0))
    for sink in sinks { await sink.close() }
    await probe.stop()
    stamped.signal(SIGKILL)
    await broker.stop()
  }
}
