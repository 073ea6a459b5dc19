import Foundation
import Glibc
import Logging
import Testing

@testable import LiftBuddyCore
@testable import LiftBuddyDaemon

/// Latency from `publish` of a rep event to its arrival at each of 200
/// subscribers, over real Unix sockets. Opt-in (it takes seconds and wants a
/// release build): scripts/bench-socket.sh runs it.
@Suite("Socket latency benchmark", .serialized)
struct SocketLatencyBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let enabled = environment["LIFTBUDDY_SOCKET_BENCH"] == "1"
  static let subscribers =
    environment["LIFTBUDDY_SOCKET_BENCH_SUBSCRIBERS"].flatMap(Int.init) ?? 200
  static let events = environment["LIFTBUDDY_SOCKET_BENCH_EVENTS"].flatMap(Int.init) ?? 500
  /// Spacing of publishes: reps come seconds apart in a gym; this is far
  /// denser, yet sparse enough to measure latency rather than throughput.
  static let spacingMicroseconds = 5_000
  static let targetP99Milliseconds = 5.0

  @Test(.enabled(if: enabled)) func publishToArrivalLatency() async throws {
    let path = SocketTest.temporaryPath()
    var logger = Logger(label: "socket-bench")
    logger.logLevel = .error
    let server = SocketServer(
      configuration: SocketConfiguration(path: path), control: SocketFakeDaemon(), logger: logger)
    try await server.start()

    let subscribers = Self.subscribers
    let events = Self.events
    let clients = try await SocketTest.offPool {
      try (0..<subscribers).map { _ in
        let client = try SocketTestClient(path: path)
        try client.send(#"{"cmd":"watch","classes":["rep"]}"# + "\n")
        _ = try client.line()  // version
        _ = try client.line()  // ack
        return client
      }
    }
    #expect(server.connectedClients == subscribers)

    var published = [Int64](repeating: 0, count: events + 1)
    let reader = Task { try await SocketTest.offPool { try Self.collect(clients, events: events) } }

    for seq in 1...events {
      let event = SocketFixtures.repEvent(seq)
      published[seq] = Self.nowNanoseconds()
      server.publish(event)
      usleep(UInt32(Self.spacingMicroseconds))
    }
    let arrivals = try await reader.value
    await server.shutdown(finalStatus: nil)

    #expect(arrivals.count == subscribers * events, "every subscriber receives every event")
    var latencies: [Double] = []
    var slowest: [Int: Int64] = [:]
    for arrival in arrivals {
      let latency = arrival.at - published[arrival.seq]
      latencies.append(Double(latency) / 1e6)
      slowest[arrival.seq] = max(slowest[arrival.seq] ?? 0, latency)
    }
    let perEvent = slowest.values.map { Double($0) / 1e6 }
    let all = Self.percentiles(latencies)
    let last = Self.percentiles(perEvent)
    print(
      "socket latency: subscribers=\(subscribers) events=\(events) samples=\(latencies.count) "
        + "p50=\(Self.ms(all.p50)) p99=\(Self.ms(all.p99)) max=\(Self.ms(all.max)) ms; "
        + "last subscriber per event: p50=\(Self.ms(last.p50)) p99=\(Self.ms(last.p99)) max=\(Self.ms(last.max)) ms"
    )
    #expect(
      all.p99 <= Self.targetP99Milliseconds,
      "p99 \(all.p99) ms over the \(Self.targetP99Milliseconds) ms target")
  }

  struct Arrival: Sendable {
    var seq: Int
    var at: Int64
  }

  /// Reads every client with one poll loop, stamping each rep line with its
  /// arrival time, until all have arrived or 30 s pass.
  static func collect(_ clients: [SocketTestClient], events: Int) throws -> [Arrival] {
    var fds = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    var pending = [[UInt8]](repeating: [], count: clients.count)
    var arrivals: [Arrival] = []
    arrivals.reserveCapacity(clients.count * events)
    var chunk = [UInt8](repeating: 0, count: 65536)
    let deadline = nowNanoseconds() + 30_000_000_000
    while arrivals.count < clients.count * events, nowNanoseconds() < deadline {
      let n = poll(&fds, nfds_t(fds.count), 100)
      let stamp = nowNanoseconds()
      guard n > 0 else { continue }
      for i in fds.indices where fds[i].revents & Int16(POLLIN) != 0 {
        let got = chunk.withUnsafeMutableBytes {
          recv(fds[i].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        guard got > 0 else { continue }
        pending[i].append(contentsOf: chunk[..<got])
        while let newline = pending[i].firstIndex(of: UInt8(ascii: "\n")) {
          if let seq = repIndex(pending[i][..<newline]) {
            arrivals.append(Arrival(seq: seq, at: stamp))
          }
          pending[i].removeSubrange(...newline)
        }
      }
    }
    return arrivals
  }

  /// The rep's `index`, which carries the publish sequence number.
  static func repIndex(_ line: ArraySlice<UInt8>) -> Int? {
    let key = Array(#""index":"#.utf8)
    guard let start = line.firstRange(of: key)?.upperBound else { return nil }
    var value = 0
    var i = start
    while i < line.endIndex, let digit = line[i].digitValue {
      value = value * 10 + digit
      i += 1
    }
    return i > start ? value : nil
  }

  static func nowNanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
  }

  static func percentiles(_ values: [Double]) -> (p50: Double, p99: Double, max: Double) {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return (.nan, .nan, .nan) }
    func at(_ q: Double) -> Double {
      sorted[min(sorted.count - 1, Int((Double(sorted.count) * q).rounded(.down)))]
    }
    return (at(0.5), at(0.99), sorted[sorted.count - 1])
  }

  static func ms(_ x: Double) -> String { String(format: "%.3f", x) }
}

extension UInt8 {
  fileprivate var digitValue: Int? {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) ? Int(self - UInt8(ascii: "0")) : nil
  }
}
