import Foundation
import LiftBuddyCore
import Logging
import Testing

@testable import LiftBuddyDaemon

/// Latency from `MQTTSink.publish` of a rep to its arrival at a subscriber
/// (`mosquitto_sub`, which stamps each message as it reads it) through a
/// real Mosquitto broker on loopback. Opt-in (it takes seconds and wants a
/// release build): `LIFTBUDDY_MQTT_BENCH=1 swift test -c release --filter MQTTLatencyBenchmark`.
@Suite("MQTT latency benchmark", .serialized)
struct MQTTLatencyBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let enabled = environment["LIFTBUDDY_MQTT_BENCH"] == "1" && MQTTTestBroker.isAvailable
  static let events = environment["LIFTBUDDY_MQTT_BENCH_EVENTS"].flatMap(Int.init) ?? 1000
  /// Far denser than reps in a gym, sparse enough to measure latency.
  static let spacingMilliseconds = 5

  @Test(.enabled(if: enabled)) func publishToSubscriberLatency() async throws {
    let dir = ScratchDirectory()
    let broker = try await MQTTTestBroker(in: dir)
    let probe = try MQTTTestSubscriber(in: dir, port: broker.port, name: "probe")
    let stamped = try DaemonChild(
      try #require(MQTTTestBroker.subscriber),
      ["-h", "127.0.0.1", "-p", "\(broker.port)", "-F", "%U %t", "-t", "liftbuddy/#"], in: dir,
      name: "stamped")
    try await probe.waitUntilSubscribed()
    var logger = Logger(label: "mqtt-bench")
    logger.logLevel = .error
    let sink = MQTTSink(
      configuration: MQTTConfiguration(
        broker: MQTTBroker(host: "127.0.0.1", port: broker.port),
        topics: MQTTTopics(prefix: "liftbuddy", rack: "bench"), source: "bench"),
      logger: logger)
    #expect(await waitUntil(timeout: 20) { sink.isConnected })
    let rep = try #require(
      try MQTTTests.sampleEvents().first { if case .rep = $0 { true } else { false } })

    var sent: [Double] = []
    for _ in 0..<Self.events {
      sent.append(Date().timeIntervalSince1970)
      sink.publish(.analyzer(rep))
      try await Task.sleep(for: .milliseconds(Self.spacingMilliseconds))
    }
    func received() -> [Double] {
      stamped.stdout.split(separator: "\n").compactMap { line in
        line.hasSuffix(" liftbuddy/bench/rep") ? Double(line.split(separator: " ")[0]) : nil
      }
    }
    #expect(await waitUntil(timeout: 30) { received().count == Self.events })
    // QoS 0 on loopback, one connection: in order, none lost.
    let latencies = zip(sent, received()).map { ($1 - $0) * 1000 }.sorted()
    func percentile(_ p: Double) -> Double {
      latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
    }
    print(
      String(
        format:
          "MQTT publish→subscriber latency over %d reps: p50 %.2f ms, p99 %.2f ms, max %.2f ms",
        latencies.count, percentile(0.5), percentile(0.99), latencies.last ?? 0))
    await sink.close()
    await probe.stop()
    stamped.signal(SIGKILL)
    await broker.stop()
  }
}
