import LiftBuddyCore
import Logging
import NIOCore
import Synchronization

/// Source → analysis → sinks, for one session, as one ordered loop.
///
/// Source events, clock ticks and commands (from socket clients, SIGHUP, the
/// watchdog) go into one queue (`LoopInbox`) in the order they happen, and a
/// single task takes them out: each input is applied to the session
/// (`SessionLoop`), and the events it produced are published to every sink,
/// in order, before the next input is taken. Nothing else touches the
/// analyzer, and no sink can be overtaken: an `end_set` never reaches a
/// subscriber before the rep it follows. Sinks return at once (see
/// `EventSink`); the ones that do I/O do it on their own queues.
///
/// The same pipeline serves live capture, paced replay and `--speed max`;
/// only the source differs.
///
/// Why one queue rather than `merge` of three streams: a live source pushes
/// straight into it from its reading thread (`SourceOutput`), so a serial
/// chunk costs one wake-up of the loop's task and no generic code. Merging
/// the source's own stream with the ticks and the commands
/// (swift-async-algorithms) put a task hop and unspecialised generic code
/// between every chunk and the loop: on a still bar at 40 Hz the daemon
/// took more CPU than before the loop existed (BENCHMARKS.md). A replay
/// waits for each run of rows to be applied before reading on
/// (`SourceOutput.send`), so it cannot run ahead of the analysis.
public final class Pipeline: DaemonControl {
  public struct Options: Sendable {
    /// Upper bound on `sample` events per second of source time; nil: none
    /// (a replay at full speed, where live plots mean nothing).
    public var sampleRateHz: Double?
    /// How often a live source's clock advances the analyzer when the clip
    /// is quiet (so that a set ends after its rest time), and the recorder
    /// is flushed; nil: no ticks (a replay at full speed).
    public var tick: Duration?
    /// Tees every line to this recording.
    public var recorder: StreamRecorder?
    /// Whose counts the `status` object carries.
    public var reportWriter: ReportFileWriter?
    /// Where the loop runs: an event loop (the socket server's, so that an
    /// event is written to the subscribers with no thread to wake between),
    /// or nil: the global pool. A source that can read on that event loop
    /// is told so (`SourceOutput.eventLoop`). See `LoopHost`.
    public var eventLoop: (any EventLoop)?

    public init(
      sampleRateHz: Double? = 10, tick: Duration? = .milliseconds(500),
      recorder: StreamRecorder? = nil, reportWriter: ReportFileWriter? = nil,
      eventLoop: (any EventLoop)? = nil
    ) {
      self.sampleRateHz = sampleRateHz
      self.tick = tick
      self.recorder = recorder
      self.reportWriter = reportWriter
      self.eventLoop = eventLoop
    }
  }

  /// What the loop takes, one at a time.
  enum Input: Sendable {
    /// With a receipt when the source waits until the event is applied.
    case source(SourceEvent, SourceReceipt?)
    case sourceEnded
    case tick
    case request(Request)
  }

  public let source: any ClipSource
  public let clock: SourceClock
  private let options: Options
  private let logger: Logger
  private let sinks: Mutex<[any EventSink]>
  /// Set-up for the loop, taken by `run` (so it runs once).
  private let pendingSession: Mutex<SessionLoop?>
  /// The loop's one input queue: source events, ticks and requests.
  private let inbox = LoopInbox()
  /// Requests sent and not yet answered, and whether the loop still takes
  /// them: the ones left when it ends are told it is stopping at once.
  private let waiting = Mutex((accepting: true, requests: [ObjectIdentifier: Request]()))
  /// The loop's status before it starts and after it ends (in between,
  /// `currentStatus` asks the loop), and the next set's exercise and load
  /// as of the last request (only requests change them).
  private let snapshot: Mutex<(status: DaemonStatus, nextSet: (Exercise?, Double?))>

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
    self.options = options
    self.logger = logger
    self.sinks = Mutex(sinks)
    let session = SessionLoop(
      source: source, clock: clock, configuration: configuration, exercise: exercise,
      loadKg: loadKg, sampleRateHz: options.sampleRateHz, recorder: options.recorder)
    snapshot = Mutex((session.currentStatus(), session.nextSet))
    pendingSession = Mutex(session)
  }

  /// Adds a sink (the socket server, once it listens). Call before `run`.
  public func add(sink: any EventSink) { sinks.withLock { $0.append(sink) } }

  /// Reads the source until it ends or the calling task is cancelled, then
  /// closes the set in progress. Call once.
  public func run() async {
    if let eventLoop = options.eventLoop {
      await withTaskExecutorPreference(EventLoopTaskExecutor(eventLoop)) {
        await LoopHost(executor: eventLoop.executor).run(self)
      }
    } else {
      await loop()
    }
  }

  /// The loop, in the caller's isolation.
  func loop(isolation: isolated (any Actor)? = #isolation) async {
    guard var session = pendingSession.withLock({ $0.take() }) else { return }
    let sinks = self.sinks.withLock { $0 }
    publish(&session, to: sinks)
    let inbox = self.inbox
    let output = SourceOutput(
      eventLoop: options.eventLoop,
      deliver: { event, receipt in inbox.yield(.source(event, receipt)) },
      end: { inbox.yield(.sourceEnded) })
    source.start(clock: clock, output: output)
    let ticker = options.tick.flatMap { tick in
      tick > .zero ? Task { await Self.tick(every: tick, into: inbox) } : nil
    }
    await consume(&session, sinks)
    ticker?.cancel()
    output.close()
    // Whatever was still queued is not applied: a source waiting on it is
    // told so (requests are answered below).
    for case .source(_, let receipt?) in inbox.drain() { receipt.signal(accepted: false) }
    let left = waiting.withLock { state in
      state.accepting = false
      defer { state.requests.removeAll() }
      return Array(state.requests.values)
    }
    for request in left { request.reply(.stopping) }
    session.finish()
    publish(&session, to: sinks)
    refreshSnapshot(session)
    options.recorder?.flush()
  }

  /// Takes inputs until the source ends or the calling task is cancelled.
  private func consume(
    _ session: inout SessionLoop, _ sinks: [any EventSink],
    isolation: isolated (any Actor)? = #isolation
  ) async {
    while let input = await inbox.next() {
      var applied: SourceReceipt?
      switch input {
      case .source(let event, let receipt):
        session.handle(event)
        applied = receipt
      case .sourceEnded: return
      case .tick: session.tick(now: clock.now())
      case .request(let request):
        answer(request, &session)
        refreshSnapshot(session)
      }
      publish(&session, to: sinks)
      applied?.signal()
    }
  }

  /// Lets the source clock advance the analysis when the clip is quiet.
  private static func tick(every interval: Duration, into inbox: LoopInbox) async {
    var due = ContinuousClock.now
    while true {
      due += interval
      do { try await Task.sleep(until: due, tolerance: interval / 10, clock: .continuous) } catch {
        return
      }
      guard inbox.yield(.tick) else { return }
    }
  }

  private func answer(_ request: Request, _ session: inout SessionLoop) {
    _ = waiting.withLock { $0.requests.removeValue(forKey: ObjectIdentifier(request)) }
    switch request.question {
    case .perform(let command): request.reply(.message(session.perform(command)))
    case .reload(let exercise, let loadKg, let rate):
      session.reload(exercise: exercise, loadKg: loadKg, sampleRateHz: rate)
      request.reply(.message(nil))
    case .heartbeat: request.reply(.message(nil))
    case .status: request.reply(.status(withReports(session.currentStatus())))
    }
  }

  /// Hands every waiting event to every sink, in order.
  private func publish(_ session: inout SessionLoop, to sinks: [any EventSink]) {
    for event in session.takeOutbox() {
      let event =
        if case .status(let status) = event { DaemonEvent.status(withReports(status)) } else {
          event
        }
      for sink in sinks { sink.publish(event) }
    }
  }

  private func refreshSnapshot(_ session: SessionLoop) {
    let status = session.currentStatus()
    let next = session.nextSet
    snapshot.withLock { $0 = (status, next) }
  }

  private func withReports(_ status: DaemonStatus) -> DaemonStatus {
    var status = status
    status.reports = options.reportWriter?.counts
    return status
  }

  /// Sends a question to the loop and waits for its answer; "the daemon is
  /// stopping" once the loop has ended.
  private func ask(_ question: Request.Question) async -> String? {
    switch await answer(question) {
    case .message(let text): text
    case .status: nil
    case .stopping: "the daemon is stopping"
    }
  }

  private func answer(_ question: Request.Question) async -> Request.Answer {
    await withCheckedContinuation { continuation in
      let request = Request(question, continuation)
      let accepted = waiting.withLock { state in
        guard state.accepting else { return false }
        state.requests[ObjectIdentifier(request)] = request
        return true
      }
      if !accepted { request.reply(.stopping) }
      if accepted, !inbox.yield(.request(request)) { request.reply(.stopping) }
    }
  }

  // MARK: - Control

  /// Returns once the loop has taken an input of its own (for the systemd
  /// watchdog: a wedged loop stops the pings).
  public func heartbeat() async { _ = await ask(.heartbeat) }

  /// Exercise and load the next set will get.
  public func nextSet() -> (Exercise?, Double?) { snapshot.withLock { $0.nextSet } }

  /// SIGHUP: what can change without a restart.
  public func reload(exercise: Exercise?, loadKg: Double?, sampleRateHz: Double?) async {
    _ = await ask(.reload(exercise: exercise, loadKg: loadKg, sampleRateHz: sampleRateHz))
  }

  public func perform(_ command: ControlCommand) async -> String? {
    await ask(.perform(command))
  }

  /// Asked of the loop while it runs; before and after, its snapshot.
  public func currentStatus() async -> DaemonStatus {
    if case .status(let status) = await answer(.status) { return status }
    return withReports(snapshot.withLock { $0.status })
  }
}
