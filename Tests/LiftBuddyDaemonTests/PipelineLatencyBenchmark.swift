import Foundation
import Glibc
import LiftBuddyCore
import Logging
import NIOCore
import NIOPosix
import Synchronization
import SystemPackage
import Testing

@testable import LiftBuddyDaemon

/// Latency from the pipeline's loop publishing a `rep` or `lift` to its
/// arrival at each of 200 subscribers, through the whole daemon pipeline
/// (replayed stream → analysis → sinks → socket), while every set's report
/// is written and fsynced to `LIFTBUDDY_PIPELINE_BENCH_DIR` (default: a
/// directory under the package, on the machine's disk) and, optionally, a
/// second process keeps that disk busy with large fsynced writes.
///
/// The alternatives, measured in the same run: the same pipeline with the
/// report written inline, on the event path, before the socket sink, as the
/// daemon did before issue 9; and with the loop on the global pool rather
/// than on the socket server's event loop, as it ran until the tail was
/// traced to the event loop's wake-up. Opt-in: scripts/bench-pipeline.sh
/// runs it.
@Suite("Pipeline latency benchmark", .serialized)
struct PipelineLatencyBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let enabled = environment["LIFTBUDDY_PIPELINE_BENCH"] == "1"
  static let subscribers =
    environment["LIFTBUDDY_PIPELINE_BENCH_SUBSCRIBERS"].flatMap(Int.init) ?? 200

  /// Stamps each rep and lift as the loop hands it to the sinks.
  final class Stamps: EventSink {
    let times = Mutex<[String: Int64]>([:])
    func publish(_ event: DaemonEvent) {
      guard let key = Self.key(event) else { return }
      let now = SocketLatencyBenchmark.nowNanoseconds()
      times.withLock { $0[key] = now }
    }
    static func key(_ event: DaemonEvent) -> String? {
      switch event {
      case .analyzer(.rep(let r)): "rep \(r.setID) \(r.rep.index)"
      case .analyzer(.lift(let report)): "lift \(report.id)"
      default: nil
      }
    }
  }

  /// Stamps each rep and lift on the socket server's event loop: placed
  /// after the socket sink, its closure runs once the server has written
  /// the event to every subscriber, so it tells how long the server's own
  /// part took (encoding, the hop to the loop, 200 writes) apart from the
  /// readers' side.
  final class WrittenStamps: EventSink {
    let loop: any EventLoop
    let times = Mutex<[String: Int64]>([:])
    init(loop: any EventLoop) { self.loop = loop }
    func publish(_ event: DaemonEvent) {
      guard let key = Stamps.key(event) else { return }
      loop.execute { [self] in
        let now = SocketLatencyBenchmark.nowNanoseconds()
        times.withLock { $0[key] = now }
      }
    }
  }

  /// The old way: the report's write, fsync, rename and directory fsync on
  /// the event path, before the socket hears of the event.
  final class InlineReportWriter: EventSink {
    let directory: DirectoryHandle
    init(_ path: String) throws { directory = try DirectoryHandle(path: path, create: true) }
    func publish(_ event: DaemonEvent) {
      guard case .analyzer(.lift(let report)) = event else { return }
      let name = ReportFileWriter.fileName(for: report.id)
      guard
        let (temp, fd) = try? directory.createExclusive(
          prefix: "." + name + ".tmp-", permissions: [.ownerReadWrite])
      else { return }
      _ = try? ReportFileWriter.fileContents(report).withUnsafeBytes { try fd.writeAll($0) }
      _ = fsync(fd.rawValue)
      try? fd.close()
      try? directory.rename(temp, to: name)
      try? directory.sync()
    }
  }

  /// - Parameter variant: `inline`: the report written on the event path,
  ///   the loop on the global pool (the daemon before issue 9); `queued`:
  ///   the report on the writer's queue, the loop on the global pool;
  ///   `pinned`: the report queued and the loop on the socket server's event
  ///   loop (`Pipeline.Options.executor`, the daemon now).
  @Test(.enabled(if: enabled), arguments: ["inline", "queued", "pinned"])
  func repAndLiftLatencyWithReportsOnDisk(_ variant: String) async throws {
    let scratch = ScratchDirectory()
    var stream = SquatStream()
    for _ in 0..<6 {
      stream.still(1)
      stream.reps(5, seconds: 1.2)
      stream.still(13)
    }
    try stream.write(to: scratch.file("bench.lbs"))
    let outBase =
      Self.environment["LIFTBUDDY_PIPELINE_BENCH_DIR"]
      ?? Binaries.packageRoot.appendingPathComponent(".build-bench-reports").path
    let out = outBase + "/\(variant)-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: out) }

    var logger = Logger(label: "pipeline-bench")
    logger.logLevel = .error
    let source = try ReplaySource(path: scratch.file("bench.lbs"), speed: .factor(8))
    let stamps = Stamps()
    let writer = try ReportFileWriter(directory: out, logger: logger)
    let reportSink: any EventSink = variant == "inline" ? try InlineReportWriter(out) : writer
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let pipeline = Pipeline(
      source: source, exercise: .squat, loadKg: 100, sinks: [stamps, reportSink],
      options: .init(
        sampleRateHz: nil, tick: nil, executor: variant == "pinned" ? group.next().executor : nil),
      logger: logger)
    let path = SocketTest.temporaryPath()
    let server = SocketServer(
      configuration: SocketConfiguration(path: path), control: pipeline, logger: logger,
      eventLoopGroup: group)
    try await server.start()
    let handedOn = Stamps()
    let loopStart = WrittenStamps(loop: group.next())
    pipeline.add(sink: loopStart)
    pipeline.add(sink: SocketSink(server: server))
    pipeline.add(sink: handedOn)
    let written = WrittenStamps(loop: group.next())
    pipeline.add(sink: written)

    let subscribers = Self.subscribers
    let clients = try await SocketTest.offPool {
      try (0..<subscribers).map { _ in
        let client = try SocketTestClient(path: path)
        try client.send(#"{"cmd":"watch","classes":["rep","lift"]}"# + "\n")
        _ = try client.line()
        _ = try client.line()
        return client
      }
    }
    let reader = Task { try await SocketTest.offPool { try Self.collect(clients) } }
    await pipeline.run()
    try await Task.sleep(for: .milliseconds(300))
    await server.shutdown(finalStatus: nil)
    let arrivals = try await reader.value
    await writer.close()
    try await group.shutdownGracefully()

    let published = stamps.times.withLock { $0 }
    let done = written.times.withLock { $0 }
    var reps: [Double] = []
    var lifts: [Double] = []
    for (key, at) in arrivals {
      guard let sent = published[key] else { continue }
      let ms = Double(at - sent) / 1e6
      if key.hasPrefix("lift") { lifts.append(ms) } else { reps.append(ms) }
    }
    // The server's part: from the loop's hand-over to the last write.
    var serverReps: [Double] = []
    var serverLifts: [Double] = []
    for (key, at) in done {
      guard let sent = published[key] else { continue }
      let ms = Double(at - sent) / 1e6
      if key.hasPrefix("lift") { serverLifts.append(ms) } else { serverReps.append(ms) }
    }
    // Where the slowest events' time went.
    let started = loopStart.times.withLock { $0 }
    let encoded = handedOn.times.withLock { $0 }
    let worst = done.compactMap { key, at in published[key].map { (key, at - $0) } }
      .sorted { $0.1 > $1.1 }.prefix(3)
    for (key, total) in worst {
      let sent = published[key]!
      func ms(_ t: Int64?) -> String {
        t.map { SocketLatencyBenchmark.ms(Double($0 - sent) / 1e6) } ?? "?"
      }
      print(
        "  slowest: \(key): socket sink returned +\(ms(encoded[key])), loop woke +\(ms(started[key])), "
          + "last write +\(SocketLatencyBenchmark.ms(Double(total) / 1e6)) ms")
    }
    func line(_ name: String, _ values: [Double]) -> String {
      let p = SocketLatencyBenchmark.percentiles(values)
      return
        "\(name) n=\(values.count) p50=\(SocketLatencyBenchmark.ms(p.p50)) p99=\(SocketLatencyBenchmark.ms(p.p99)) max=\(SocketLatencyBenchmark.ms(p.max)) ms"
    }
    print(
      "pipeline latency (\(variant), \(subscribers) subscribers, reports in \(outBase)): "
        + line("rep", reps) + "; " + line("lift", lifts) + "; server's part (to its last write): "
        + line("rep", serverReps) + "; " + line("lift", serverLifts))
    #expect(reps.count == subscribers * 30)
    #expect(lifts.count == subscribers * 6)
  }

  /// Every rep and lift line each client receives, with its arrival time,
  /// until the server closes. Each read is stamped as it returns, and the
  /// lines are decoded only after the run: decoding 200 copies of a report
  /// between reads (as this reader once did) delayed the later stamps by
  /// milliseconds and was counted as the server's latency.
  static func collect(_ clients: [SocketTestClient]) throws -> [(String, Int64)] {
    var fds = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    var pending = [[UInt8]](repeating: [], count: clients.count)
    var open = clients.count
    var lines: [(line: [UInt8], at: Int64)] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    let deadline = SocketLatencyBenchmark.nowNanoseconds() + 120_000_000_000
    while open > 0, SocketLatencyBenchmark.nowNanoseconds() < deadline {
      let n = poll(&fds, nfds_t(fds.count), 100)
      guard n > 0 else { continue }
      for i in fds.indices where fds[i].revents != 0 && fds[i].fd >= 0 {
        let got = chunk.withUnsafeMutableBytes {
          recv(fds[i].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
        }
        let stamp = SocketLatencyBenchmark.nowNanoseconds()
        if got <= 0 {
          if got == 0 || (errno != EAGAIN && errno != EINTR) {
            fds[i].fd = -1
            open -= 1
          }
          continue
        }
        pending[i].append(contentsOf: chunk[..<got])
        var start = pending[i].startIndex
        while let newline = pending[i][start...].firstIndex(of: UInt8(ascii: "\n")) {
          lines.append((Array(pending[i][start..<newline]), stamp))
          start = newline + 1
        }
        if start > pending[i].startIndex { pending[i].removeSubrange(..<start) }
      }
    }
    return lines.compactMap { line in key(line.line[...]).map { ($0, line.at) } }
  }

  /// The same key `Stamps` gives, read off a wire line.
  static func key(_ line: ArraySlice<UInt8>) -> String? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
    else { return nil }
    switch object["class"] as? String {
    case "rep":
      guard let set = object["set_id"] as? String,
        let index = (object["rep"] as? [String: Any])?["index"] as? Int
      else { return nil }
      return "rep \(set) \(index)"
    case "lift":
      guard let id = (object["report"] as? [String: Any])?["id"] as? String else { return nil }
      return "lift \(id)"
    default: return nil
    }
  }
}
