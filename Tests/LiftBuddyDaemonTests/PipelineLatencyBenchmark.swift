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
/// The variants (`LIFTBUDDY_PIPELINE_BENCH_VARIANTS`, comma-separated) run
/// in rounds, one after the other within each round, so that every variant
/// sees the same minutes of the machine's load; each round replays
/// `LIFTBUDDY_PIPELINE_BENCH_SETS` sets of 10 reps (default 10), so three
/// rounds give each variant 300 reps and 30 lifts: a p99 over events is
/// then the third-slowest rep, not the slowest of a run. Opt-in:
/// scripts/bench-pipeline.sh runs it.
@Suite("Pipeline latency benchmark", .serialized)
struct PipelineLatencyBenchmark {
  static let environment = ProcessInfo.processInfo.environment
  static let enabled = environment["LIFTBUDDY_PIPELINE_BENCH"] == "1"
  static let subscribers =
    environment["LIFTBUDDY_PIPELINE_BENCH_SUBSCRIBERS"].flatMap(Int.init) ?? 200
  static let rounds = environment["LIFTBUDDY_PIPELINE_BENCH_ROUNDS"].flatMap(Int.init) ?? 3
  static let sets = environment["LIFTBUDDY_PIPELINE_BENCH_SETS"].flatMap(Int.init) ?? 10
  static let repsPerSet = 10
  /// Replay speed: a rep every 1.2 s of stream time, so 75 ms apart at 16×,
  /// far more than the 1–2 ms an event takes to reach 200 subscribers.
  static let speed = environment["LIFTBUDDY_PIPELINE_BENCH_SPEED"].flatMap(Double.init) ?? 16
  /// `replay` (default): the stream replayed at `speed`; `ble`: played at
  /// its recorded pace (1×) as ATT notifications from a clip on a
  /// socketpair (`BLEClipFeed`), through `BLESource`.
  static let sourceKind = environment["LIFTBUDDY_PIPELINE_BENCH_SOURCE"] ?? "replay"
  static let variantNames =
    (environment["LIFTBUDDY_PIPELINE_BENCH_VARIANTS"] ?? "inline,queued,pinned")
    .split(separator: ",").map(String.init)

  /// How the daemon is run.
  ///
  /// `inline`: the report written on the event path, the loop on the global
  /// pool (the daemon before issue 9); `queued`: the report on the writer's
  /// queue, the loop on the global pool (the daemon with a replay or BLE);
  /// `pinned`: queued, and the loop on the socket server's event loop
  /// (`Pipeline.Options.eventLoop`, the daemon with a serial clip).
  /// A suffix gives every thread but the subscribers' reader a scheduling
  /// priority, as the unit's settings would: `+nice-N` a nice value of -N
  /// (`Nice=`), `+weightW` a cpu cgroup of its own with the share
  /// `CPUWeight=W` maps to (cgroup v1 `cpu.shares` = W × 1024 / 100).
  struct Variant: Sendable, CustomStringConvertible {
    enum Priority: Sendable {
      case none
      case nice(Int32)
      case weight(Int)
    }
    var inline: Bool
    var pinned: Bool
    var priority: Priority
    var description: String

    init?(_ name: String) {
      description = name
      let parts = name.split(separator: "+", maxSplits: 1).map(String.init)
      switch parts[0] {
      case "inline": (inline, pinned) = (true, false)
      case "queued": (inline, pinned) = (false, false)
      case "pinned": (inline, pinned) = (false, true)
      default: return nil
      }
      guard parts.count == 2 else {
        priority = .none
        return
      }
      if parts[1].hasPrefix("nice"), let n = Int32(parts[1].dropFirst(4)) {
        priority = .nice(n)
      } else if parts[1].hasPrefix("weight"), let w = Int(parts[1].dropFirst(6)), w > 0 {
        priority = .weight(w)
      } else {
        return nil
      }
    }
  }

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

  /// Latencies of one variant, in milliseconds, over every round.
  struct Tally {
    /// Every delivery: one per event and subscriber.
    var repDeliveries: [Double] = []
    var liftDeliveries: [Double] = []
    /// Per event: the server's part (hand-over to its last write).
    var repServer: [Double] = []
    var liftServer: [Double] = []
    /// Per event: hand-over to its arrival at the last subscriber.
    var repLast: [Double] = []
    var liftLast: [Double] = []
    /// Per rep, with a BLE clip: from the notification that completed it
    /// (the last one sent before the loop handed the rep on) to the
    /// server's last write: the daemon's whole part, the source's read and
    /// its hand-over to the loop included.
    var repFromNotification: [Double] = []
    /// The 1-minute load average as each round of this variant started.
    var loads: [Double] = []
    /// The slowest events by the server's part, with their breakdown.
    var slowest: [(ms: Double, text: String)] = []

    mutating func add(_ other: Tally) {
      repDeliveries += other.repDeliveries
      liftDeliveries += other.liftDeliveries
      repServer += other.repServer
      liftServer += other.liftServer
      repLast += other.repLast
      liftLast += other.liftLast
      repFromNotification += other.repFromNotification
      loads += other.loads
      slowest = Array((slowest + other.slowest).sorted { $0.ms > $1.ms }.prefix(3))
    }

    func summary(_ name: String) -> String {
      func line(_ label: String, _ values: [Double]) -> String {
        let p = SocketLatencyBenchmark.percentiles(values)
        return
          "\(label) n=\(values.count) p50=\(SocketLatencyBenchmark.ms(p.p50)) p99=\(SocketLatencyBenchmark.ms(p.p99)) max=\(SocketLatencyBenchmark.ms(p.max))"
      }
      let over = repServer.filter { $0 > 5 }.count + liftServer.filter { $0 > 5 }.count
      let lastOver = repLast.filter { $0 > 5 }.count + liftLast.filter { $0 > 5 }.count
      let load = loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
      return
        "pipeline latency (\(name), \(PipelineLatencyBenchmark.subscribers) subscribers, load \(load)): deliveries: "
        + line("rep", repDeliveries) + "; " + line("lift", liftDeliveries)
        + " ms; server's part per event: " + line("rep", repServer) + "; "
        + line("lift", liftServer)
        + " ms; last subscriber per event: " + line("rep", repLast) + "; " + line("lift", liftLast)
        + " ms; events over 5 ms: server \(over), last subscriber \(lastOver) of \(repServer.count + liftServer.count)"
        + (repFromNotification.isEmpty
          ? ""
          : "; notification to last write: " + line("rep", repFromNotification)
            + " ms, over 5 ms: \(repFromNotification.filter { $0 > 5 }.count)")
    }
  }

  @Test(.enabled(if: enabled)) func repAndLiftLatencyWithReportsOnDisk() async throws {
    let variants = try Self.variantNames.map { name in
      try #require(Variant(name), "unknown variant \(name)")
    }
    let scratch = ScratchDirectory()
    var stream = SquatStream()
    for _ in 0..<Self.sets {
      stream.still(1)
      stream.reps(Self.repsPerSet, seconds: 1.2)
      stream.still(4)
    }
    try stream.write(to: scratch.file("bench.lbs"))
    var tallies = [String: Tally]()
    defer { ThreadPriority.removeGroup() }
    for round in 1...Self.rounds {
      for variant in variants {
        let tally = try await Self.run(
          variant, stream: scratch.file("bench.lbs"), rows: stream.rows)
        print("  round \(round): " + tally.summary(variant.description))
        tallies[variant.description, default: Tally()].add(tally)
      }
    }
    for variant in variants {
      let tally = tallies[variant.description]!
      print(tally.summary(variant.description))
      for slow in tally.slowest { print("  slowest (\(variant)): \(slow.text)") }
      #expect(tally.repServer.count == Self.rounds * Self.sets * Self.repsPerSet)
      #expect(tally.liftServer.count == Self.rounds * Self.sets)
      #expect(tally.repDeliveries.count == tally.repServer.count * Self.subscribers)
      #expect(tally.liftDeliveries.count == tally.liftServer.count * Self.subscribers)
    }
  }

  /// The idle cost of the BLE path: a still bar at 40 Hz from `BLEClipFeed`
  /// through `BLESource` into the pipeline, with the socket server up and
  /// no clients, as the daemon idles between sets. Per variant and round,
  /// after 5 s of warm-up, the run time of this process's threads over
  /// `LIFTBUDDY_PIPELINE_BENCH_IDLE_SECONDS` (default 30) from
  /// /proc/self/task/*/schedstat, the clip's own thread left out: the
  /// nanosecond counterpart of `scripts/bench-idle.sh`, which needs a
  /// device the daemon can open. Opt-in: `scripts/bench-pipeline.sh --idle`.
  @Test(.enabled(if: environment["LIFTBUDDY_PIPELINE_BENCH_IDLE"] == "1"))
  func idleCostOfAStillBarOverBLE() async throws {
    let seconds =
      Self.environment["LIFTBUDDY_PIPELINE_BENCH_IDLE_SECONDS"].flatMap(Double.init) ?? 30
    let variants = try Self.variantNames.map { name in
      try #require(Variant(name), "unknown variant \(name)")
    }
    var shares = [String: [Double]]()
    for round in 1...Self.rounds {
      for variant in variants {
        var stream = SquatStream()
        stream.still(seconds + 10)
        let feed = BLEClipFeed(rows: stream.rows)
        var logger = Logger(label: "pipeline-bench")
        logger.logLevel = .error
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let pipeline = Pipeline(
          source: feed.source(), configuration: AnalyzerConfiguration(), exercise: .squat,
          loadKg: 100, sinks: [],
          options: .init(
            sampleRateHz: nil, tick: .milliseconds(500),
            eventLoop: variant.pinned ? group.next() : nil),
          logger: logger)
        let server = SocketServer(
          configuration: SocketConfiguration(path: SocketTest.temporaryPath()),
          control: pipeline, logger: logger, eventLoopGroup: group)
        try await server.start()
        pipeline.add(sink: SocketSink(server: server))
        let running = Task { await pipeline.run() }
        try await Task.sleep(for: .seconds(5))
        let load = Self.loadAverage()
        let (r0, t0) = (Self.threadRunTimes(), ContinuousClock.now)
        try await Task.sleep(for: .seconds(seconds))
        let (r1, t1) = (Self.threadRunTimes(), ContinuousClock.now)
        let feeder = feed.threadID
        let ns = r1.filter { $0.key != feeder }.reduce(Int64(0)) { sum, entry in
          sum + (r0[entry.key].map { entry.value - $0 } ?? 0)
        }
        let wall = t0.duration(to: t1)
        let share =
          100 * Double(ns) / 1e9
          / (Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18)
        print(
          "  round \(round): idle (\(variant), BLE still bar at 40 Hz, load \(String(format: "%.2f", load))): "
            + String(
              format: "%.3f s in %.1f s = %.3f %% of a core", Double(ns) / 1e9,
              Double(wall.components.seconds), share))
        shares[variant.description, default: []].append(share)
        #expect(!feed.isFinished)
        running.cancel()
        await running.value
        await server.shutdown(finalStatus: nil)
        try await group.shutdownGracefully()
      }
    }
    for variant in variants {
      let list = shares[variant.description]!.map { String(format: "%.3f", $0) }
      print(
        "idle (\(variant), BLE still bar at 40 Hz): " + list.joined(separator: ", ")
          + " % of a core")
    }
  }

  /// Run time so far (nanoseconds, schedstat's first field) of each of this
  /// process's threads.
  static func threadRunTimes() -> [pid_t: Int64] {
    var times: [pid_t: Int64] = [:]
    for tid in ThreadPriority.threads() {
      guard
        let text = try? String(
          contentsOfFile: "/proc/self/task/\(tid)/schedstat", encoding: .utf8),
        let first = text.split(separator: " ").first, let ns = Int64(first)
      else { continue }
      times[tid] = ns
    }
    return times
  }

  /// One round of one variant.
  static func run(_ variant: Variant, stream file: String, rows: [SquatStream.Row]) async throws
    -> Tally
  {
    let outBase =
      Self.environment["LIFTBUDDY_PIPELINE_BENCH_DIR"]
      ?? Binaries.packageRoot.appendingPathComponent(".build-bench-reports").path
    let out = outBase + "/\(variant.description)-\(getpid())"
    defer { try? FileManager.default.removeItem(atPath: out) }

    var logger = Logger(label: "pipeline-bench")
    logger.logLevel = .error
    var configuration = AnalyzerConfiguration()
    configuration.setRestS = 3
    let feed = Self.sourceKind == "ble" ? BLEClipFeed(rows: rows) : nil
    let source: any ClipSource =
      try feed?.source() ?? ReplaySource(path: file, speed: .factor(Self.speed))
    let stamps = Stamps()
    let writer = try ReportFileWriter(directory: out, logger: logger)
    let reportSink: any EventSink = variant.inline ? try InlineReportWriter(out) : writer
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let pipeline = Pipeline(
      source: source, configuration: configuration, exercise: .squat, loadKg: 100,
      sinks: [stamps, reportSink],
      options: .init(
        sampleRateHz: nil, tick: nil, eventLoop: variant.pinned ? group.next() : nil),
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
    // The reader stands for the subscribers (`liftbuddy watch`, other
    // processes): it keeps the default priority whatever the daemon gets.
    let readerThread = ReaderThread()
    let reader = Task {
      try await SocketTest.offPool {
        ThreadPriority.makeDefault()
        readerThread.id.withLock { $0 = ThreadPriority.currentThread() }
        return try Self.collect(clients)
      }
    }
    var readerID: pid_t?
    while readerID == nil {
      try await Task.sleep(for: .milliseconds(5))
      readerID = readerThread.id.withLock { $0 }
    }
    var tally = Tally()
    tally.loads = [Self.loadAverage()]
    try ThreadPriority.apply(variant.priority, except: readerID!)
    if let feed {
      // A live source never ends: stop once the clip has played it all and
      // the last set has closed on its rest.
      let running = Task { await pipeline.run() }
      while !feed.isFinished { try await Task.sleep(for: .milliseconds(100)) }
      try await Task.sleep(for: .milliseconds(500))
      running.cancel()
      await running.value
    } else {
      await pipeline.run()
    }
    ThreadPriority.resetAll()
    try await Task.sleep(for: .milliseconds(300))
    await server.shutdown(finalStatus: nil)
    let arrivals = try await reader.value
    await writer.close()
    try await group.shutdownGracefully()

    let published = stamps.times.withLock { $0 }
    let done = written.times.withLock { $0 }
    var last: [String: Int64] = [:]
    for (key, at) in arrivals {
      guard let sent = published[key] else { continue }
      let ms = Double(at - sent) / 1e6
      if key.hasPrefix("lift") {
        tally.liftDeliveries.append(ms)
      } else {
        tally.repDeliveries.append(ms)
      }
      last[key] = max(last[key] ?? at, at)
    }
    for (key, at) in last {
      let ms = Double(at - published[key]!) / 1e6
      if key.hasPrefix("lift") { tally.liftLast.append(ms) } else { tally.repLast.append(ms) }
    }
    // The server's part: from the loop's hand-over to the last write.
    for (key, at) in done {
      guard let sent = published[key] else { continue }
      let ms = Double(at - sent) / 1e6
      if key.hasPrefix("lift") { tally.liftServer.append(ms) } else { tally.repServer.append(ms) }
    }
    if let feed {
      let sent = feed.sentAt.withLock { $0 }
      for (key, at) in done where key.hasPrefix("rep") {
        guard let handedOn = published[key], let from = sent.last(where: { $0 <= handedOn })
        else { continue }
        tally.repFromNotification.append(Double(at - from) / 1e6)
      }
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
      tally.slowest.append(
        (
          Double(total) / 1e6,
          "\(key): socket sink returned +\(ms(encoded[key])), loop woke +\(ms(started[key])), "
            + "last write +\(SocketLatencyBenchmark.ms(Double(total) / 1e6)) ms, "
            + "last subscriber +\(ms(last[key])) ms (load \(tally.loads[0]))"
        ))
    }
    return tally
  }

  /// The reader's thread id, once it runs.
  final class ReaderThread: Sendable {
    let id = Mutex<pid_t?>(nil)
  }

  static func loadAverage() -> Double {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? ""
    return text.split(separator: " ").first.flatMap { Double($0) } ?? .nan
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
    let deadline = SocketLatencyBenchmark.nowNanoseconds() + 300_000_000_000
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

/// Gives this process's threads a scheduling priority, as a unit's `Nice=`
/// or `CPUWeight=` would give the daemon's, and takes it back. Needs root
/// (a negative nice value, a cgroup of its own) and a cgroup v1 `cpu`
/// hierarchy at /sys/fs/cgroup/cpu for the weight.
enum ThreadPriority {
  static let root = "/sys/fs/cgroup/cpu"
  static let group = "\(root)/liftbuddy-bench-\(getpid())"

  static func threads() -> [pid_t] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [])
      .compactMap { pid_t($0) }
  }

  /// The calling thread's id (Glibc's `gettid` is not imported):
  /// /proc/thread-self links to `PID/task/TID`.
  static func currentThread() -> pid_t {
    let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self"))
    return link.flatMap { $0.split(separator: "/").last.flatMap { pid_t($0) } } ?? 0
  }

  /// Nice 0 for the calling thread (lowering it from a negative value
  /// needs no privilege).
  static func makeDefault() {
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(currentThread()), 0)
  }

  /// Every thread but `except`; threads started later inherit it from
  /// the thread that starts them.
  static func apply(_ priority: PipelineLatencyBenchmark.Variant.Priority, except: pid_t) throws {
    switch priority {
    case .none: return
    case .nice(let n):
      for tid in threads() where tid != except {
        // A thread that has just ended is ESRCH; anything else is a failure.
        guard
          setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), n) == 0
            || errno == ESRCH
        else { throw Errno(rawValue: errno) }
      }
    case .weight(let w):
      if !FileManager.default.fileExists(atPath: group) {
        guard mkdir(group, 0o755) == 0 else { throw Errno(rawValue: errno) }
      }
      try write("\(w * 1024 / 100)", to: "\(group)/cpu.shares")
      for tid in threads() where tid != except { try? write("\(tid)", to: "\(group)/tasks") }
    }
  }

  /// Nice 0 and the root cgroup for every thread.
  static func resetAll() {
    for tid in threads() {
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(tid), 0)
      if FileManager.default.fileExists(atPath: group) { try? write("\(tid)", to: "\(root)/tasks") }
    }
  }

  static func removeGroup() {
    resetAll()
    _ = rmdir(group)
  }

  private static func write(_ text: String, to path: String) throws {
    let fd = try FileDescriptor.open(path, .writeOnly)
    defer { try? fd.close() }
    _ = try Array(text.utf8).withUnsafeBytes { try fd.writeAll($0) }
  }
}
