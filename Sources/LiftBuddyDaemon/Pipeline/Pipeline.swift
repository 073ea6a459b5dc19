import LiftBuddyCore
import Logging

/// Source → framer → analyzer → sinks, for one session.
///
/// The one analyzer is owned by this actor: lines, timer ticks and socket
/// commands reach it one at a time, in the order they arrive, so its events
/// go out as one ordered stream. The same pipeline serves live capture,
/// paced replay and `--speed max`; only the source differs.
public actor Pipeline: DaemonControl {
  public struct Options: Sendable {
    /// Upper bound on `sample` events per second of source time; nil: none
    /// (a replay at full speed, where live plots mean nothing).
    public var sampleRateHz: Double?
    /// How often a live source's clock advances the analyzer when the clip
    /// is quiet (so that a set ends after its rest time), and the recorder
    /// is flushed.
    public var tick: Duration = .milliseconds(500)
    /// Tee every line to this recorded-stream file.
    public var recordPath: String?

    public init(
      sampleRateHz: Double? = 10, tick: Duration = .milliseconds(500), recordPath: String? = nil
    ) {
      self.sampleRateHz = sampleRateHz
      self.tick = tick
      self.recordPath = recordPath
    }
  }

  public nonisolated let source: any ClipSource
  public nonisolated let clock: SourceClock
  private var analyzer: Analyzer
  private var framer = LineFramer()
  private var sinks: [any EventSink]
  private var recorder: StreamRecorder?
  private let logger: Logger
  private var options: Options
  private var status: DaemonStatus
  /// The latest time fed to the analyzer: times it sees never decrease.
  private var lastT = 0.0
  private var lastSampleT = -Double.infinity
  private var events: [AnalyzerEvent] = []
  private var finished = false
  private var recorderFailing = false

  public init(
    source: any ClipSource, configuration: AnalyzerConfiguration = .init(), exercise: Exercise?,
    loadKg: Double?, sinks: [any EventSink], options: Options = .init(), logger: Logger
  ) {
    self.source = source
    let clock: SourceClock =
      switch source.hints.timing {
      case .live: .startingNow()
      case .recorded(let origin): SourceClock(origin: .now, wallClockOrigin: origin)
      }
    self.clock = clock
    var analyzer = Analyzer(
      configuration: configuration,
      session: SessionInfo(
        source: source.name, wallClockOrigin: clock.wallClockOrigin, exercise: exercise,
        loadKg: loadKg))
    if let hz = source.hints.nominalRateHz { analyzer.setNominalRate(hz) }
    self.analyzer = analyzer
    self.sinks = sinks
    self.options = options
    self.logger = logger
    self.status = DaemonStatus(state: .starting, source: source.name, t: 0)
  }

  /// Adds a sink (the socket server, once it listens).
  public func add(sink: any EventSink) { sinks.append(sink) }

  /// Reads the source until it ends or the calling task is cancelled, then
  /// closes the set in progress and the recorder. Call once.
  public func run() async {
    if let path = options.recordPath {
      do {
        recorder = try StreamRecorder(
          path: path, source: source.name, startedAtUnix: clock.wallClockOrigin,
          exercise: analyzer.session.exercise, loadKg: analyzer.session.loadKg)
      } catch {
        logger.error("cannot record to \(path): \(error); going on without recording")
      }
    }
    await publish(.status(status))
    let stream = source.events(clock: clock)
    // Ticks advance a live source's clock and flush the recorder (for any
    // source, so that a paced replay's recording is written as it goes).
    let interval = options.tick
    let ticker = Task { [weak self] in
      while !Task.isCancelled {
        try? await Task.sleep(for: interval)
        await self?.tick()
      }
    }
    for await event in stream {
      await handle(event)
    }
    ticker.cancel()
    await finish()
  }

  /// Closes the set in progress, emits its report, says `stopping`.
  private func finish() async {
    guard !finished else { return }
    finished = true
    var f = framer
    framer = LineFramer()
    f.finish { take($0, at: lastT) }
    analyzer.finish(into: &events)
    await deliver()
    recorder?.close()
    recorder = nil
    status.state = .stopping
    status.message = nil
    await publish(.status(currentStatusNow()))
  }

  func handle(_ event: SourceEvent) async {
    switch event {
    case .bytes(let bytes, let t):
      let t = max(t, lastT)
      lastT = t
      var f = framer
      framer = LineFramer()
      bytes.withUnsafeBytes { chunk in f.append(chunk) { take($0, at: t) } }
      framer = f
    case .rows(let rows):
      for row in rows {
        switch row {
        case .line(let t, let bytes):
          let t = max(t, lastT)
          lastT = t
          bytes.withUnsafeBytes { line in
            recorder?.record(t: t, line: line)
            analyzer.ingest(line: line, at: t, into: &events)
          }
        case .rejected(let why):
          analyzer.countRejected(why)
        }
      }
    case .status(let change):
      await sourceStatusChanged(change)
    }
    await deliver()
    await sampleIfDue()
  }

  private func take(_ framed: FramedLine, at t: Double) {
    switch framed {
    case .line(let line):
      recorder?.record(t: t, line: line)
      analyzer.ingest(line: line, at: t, into: &events)
    case .overlong:
      analyzer.countRejected(.overlong)
    }
  }

  private func sourceStatusChanged(_ change: SourceStatus) async {
    switch change {
    case .connected(let detail):
      status.state = .connected
      status.message = detail
    case .lost(let reason):
      status.state = .disconnected
      status.message = reason
      // A partial line from before the loss is not a line.
      framer = LineFramer()
      analyzer.endSet(into: &events)
      await deliver()
    case .retrying(let seconds):
      status.state = .retrying
      status.message = "retrying in \(Self.format(seconds)) s"
    case .rewound:
      status.state = .connected
      status.message = "end of file; replaying from the start"
      framer = LineFramer()
      analyzer.endSet(into: &events)
      await deliver()
    }
    await publish(.status(currentStatusNow()))
  }

  /// Live sources: lets source time pass when the clip is quiet.
  func tick() async {
    guard !finished else { return }
    flushRecorder()
    guard case .live = source.hints.timing else { return }
    // A little behind the clock, so that a chunk stamped just before the
    // tick but handled after it is not pushed later than it arrived.
    let t = clock.now() - 0.25
    if t > lastT {
      lastT = t
      analyzer.advance(to: t, into: &events)
      await deliver()
    }
  }

  /// Flushes the recording; says so once when writing starts failing (a
  /// full disk) and once when it works again.
  private func flushRecorder() {
    guard let recorder else { return }
    recorder.flush()
    let failing = recorder.lastError != nil
    if failing != recorderFailing {
      recorderFailing = failing
      if let error = recorder.lastError {
        logger.error(
          "cannot write the recording \(options.recordPath ?? ""): \(error); rows are kept briefly and retried"
        )
      } else {
        logger.notice("the recording \(options.recordPath ?? "") is being written again")
      }
    }
  }

  private func sampleIfDue() async {
    guard let rate = options.sampleRateHz, rate > 0 else { return }
    let live = analyzer.live
    guard live.t - lastSampleT >= 1 / rate else { return }
    lastSampleT = live.t
    await publish(.sample(live))
  }

  private func deliver() async {
    guard !events.isEmpty else { return }
    let batch = events
    events.removeAll(keepingCapacity: true)
    for event in batch { await publish(.analyzer(event)) }
  }

  private func publish(_ event: DaemonEvent) async {
    for sink in sinks { await sink.publish(event) }
  }

  private func currentStatusNow() -> DaemonStatus {
    var s = status
    s.quality = analyzer.totals
    s.t = lastT
    return s
  }

  // MARK: - Control

  /// Responds when the pipeline is not stuck (for the systemd watchdog).
  public func heartbeat() {}

  /// Exercise and load the next set will get.
  public func nextSet() -> (Exercise?, Double?) {
    (analyzer.session.exercise, analyzer.session.loadKg)
  }

  /// SIGHUP: what can change without a restart.
  public func reload(exercise: Exercise?, loadKg: Double?, sampleRateHz: Double?) async {
    analyzer.prepareNextSet(exercise: exercise, loadKg: loadKg)
    if options.sampleRateHz != nil { options.sampleRateHz = sampleRateHz }
    var s = currentStatusNow()
    s.state = .reloaded
    s.message = "configuration reloaded"
    await publish(.status(s))
  }

  public func perform(_ command: ControlCommand) async -> String? {
    guard !finished else { return "the daemon is stopping" }
    switch command {
    case .setNext(let exercise, let loadKg):
      analyzer.prepareNextSet(exercise: exercise, loadKg: loadKg)
    case .endSet, .startSet:
      // A new set starts with its first rep; ending this one is all it takes.
      analyzer.endSet(into: &events)
      await deliver()
    }
    return nil
  }

  public func currentStatus() async -> DaemonStatus { currentStatusNow() }

  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
  }
}
