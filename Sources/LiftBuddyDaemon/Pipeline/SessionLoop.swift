import LiftBuddyCore

/// The state of one session as the pipeline's loop sees it: the analysis
/// (a live analyzer behind the line framer, or the core's recorded-stream
/// adapter for a replay), the status, and the events waiting to be
/// published. Every input goes through one `mutating` call, so the events
/// come out in exactly the order the inputs went in.
///
/// Owned by the loop's task alone: nothing here is shared or locked.
struct SessionLoop {
  private var live: Analyzer?
  private var framer = LineFramer()
  private var recorded: RecordedStreamAnalysis?
  private let recorder: StreamRecorder?
  private(set) var status: DaemonStatus
  var sampleRateHz: Double?
  /// The latest time fed to a live analyzer: times it sees never decrease.
  private var lastT = 0.0
  private var lastSampleT = -Double.infinity
  private var scratch: [AnalyzerEvent] = []
  /// Events ready to publish, in order.
  private(set) var outbox: [DaemonEvent] = []
  private(set) var finished = false

  init(
    source: any ClipSource, clock: SourceClock, configuration: AnalyzerConfiguration,
    exercise: Exercise?, loadKg: Double?, sampleRateHz: Double?, recorder: StreamRecorder?
  ) {
    switch source.hints.timing {
    case .live:
      var analyzer = Analyzer(
        configuration: configuration,
        session: SessionInfo(
          source: source.name, wallClockOrigin: clock.wallClockOrigin, exercise: exercise,
          loadKg: loadKg))
      if let hz = source.hints.nominalRateHz { analyzer.setNominalRate(hz) }
      live = analyzer
    case .recorded:
      recorded = RecordedStreamAnalysis(
        sourceName: source.name, configuration: configuration, exercise: exercise, loadKg: loadKg)
    }
    self.recorder = recorder
    self.sampleRateHz = sampleRateHz
    status = DaemonStatus(state: .starting, source: source.name, t: 0)
    outbox.append(.status(status))
  }

  mutating func takeOutbox() -> [DaemonEvent] {
    defer { outbox.removeAll(keepingCapacity: true) }
    return outbox
  }

  // MARK: Inputs

  mutating func handle(_ event: SourceEvent) {
    guard !finished else { return }
    switch event {
    case .bytes(let bytes, let t):
      let t = max(t, lastT)
      lastT = t
      var f = framer
      framer = LineFramer()
      bytes.withUnsafeBytes { chunk in f.append(chunk) { take($0, at: t) } }
      framer = f
    case .recorded(let bytes):
      let recorder = self.recorder
      bytes.withUnsafeBytes {
        recorded!.append($0, into: &scratch) { recorder?.record(t: $0, line: $1) }
      }
    case .status(let change):
      sourceStatusChanged(change)
    }
    deliver()
    sampleIfDue()
  }

  /// Live sources: lets source time pass when the clip is quiet; `now` is
  /// the source clock's time.
  mutating func tick(now: Double) {
    guard !finished else { return }
    recorder?.flush()
    guard live != nil else { return }
    // A little behind the clock, so that a chunk stamped just before the
    // tick but handled after it is not pushed later than it arrived.
    let t = now - 0.25
    if t > lastT {
      lastT = t
      live!.advance(to: t, into: &scratch)
      deliver()
    }
  }

  /// Returns a one-line error when the command cannot be carried out.
  mutating func perform(_ command: ControlCommand) -> String? {
    guard !finished else { return "the daemon is stopping" }
    switch command {
    case .setNext(let exercise, let loadKg):
      prepareNextSet(exercise: exercise, loadKg: loadKg)
    case .endSet, .startSet:
      // A new set starts with its first rep; ending this one is all it takes.
      endSet()
      deliver()
    }
    return nil
  }

  mutating func reload(exercise: Exercise?, loadKg: Double?, sampleRateHz: Double?) {
    prepareNextSet(exercise: exercise, loadKg: loadKg)
    if self.sampleRateHz != nil { self.sampleRateHz = sampleRateHz }
    var s = currentStatus()
    s.state = .reloaded
    s.message = "configuration reloaded"
    outbox.append(.status(s))
  }

  /// Closes the set in progress, emits its report, says `stopping`.
  mutating func finish() {
    guard !finished else { return }
    finished = true
    if live != nil {
      var f = framer
      framer = LineFramer()
      f.finish { take($0, at: lastT) }
      live!.finish(into: &scratch)
    } else {
      let recorder = self.recorder
      recorded!.finish(into: &scratch) { recorder?.record(t: $0, line: $1) }
    }
    deliver()
    status.state = .stopping
    status.message = nil
    outbox.append(.status(currentStatus()))
  }

  // MARK: Reading

  /// Exercise and load the next set will get.
  var nextSet: (Exercise?, Double?) {
    if let live { return (live.session.exercise, live.session.loadKg) }
    return recorded!.nextSetSession
  }

  func currentStatus() -> DaemonStatus {
    var s = status
    s.quality = live?.totals ?? recorded!.totals
    s.t = live != nil ? lastT : recorded!.latestTime
    return s
  }

  // MARK: Steps

  private mutating func take(_ framed: FramedLine, at t: Double) {
    switch framed {
    case .line(let line):
      recorder?.record(t: t, line: line)
      live!.ingest(line: line, at: t, into: &scratch)
    case .overlong:
      live!.countRejected(.overlong)
    }
  }

  private mutating func sourceStatusChanged(_ change: SourceStatus) {
    switch change {
    case .connected(let detail):
      status.state = .connected
      status.message = detail
    case .lost(let reason):
      status.state = .disconnected
      status.message = reason
      // A partial line from before the loss is not a line.
      framer = LineFramer()
      endSet()
    case .retrying(let seconds):
      status.state = .retrying
      status.message = "retrying in \(DaemonStatus.format(seconds)) s"
    case .rewound:
      status.state = .connected
      status.message = "end of file; replaying from the start"
      if live != nil {
        framer = LineFramer()
        endSet()
      } else {
        let recorder = self.recorder
        recorded!.rewind(into: &scratch) { recorder?.record(t: $0, line: $1) }
      }
    }
    deliver()
    outbox.append(.status(currentStatus()))
  }

  private mutating func endSet() {
    if live != nil { live!.endSet(into: &scratch) } else { recorded!.endSet(into: &scratch) }
  }

  private mutating func prepareNextSet(exercise: Exercise?, loadKg: Double?) {
    if live != nil {
      live!.prepareNextSet(exercise: exercise, loadKg: loadKg)
    } else {
      recorded!.prepareNextSet(exercise: exercise, loadKg: loadKg)
    }
  }

  private mutating func sampleIfDue() {
    guard let rate = sampleRateHz, rate > 0 else { return }
    let state = live?.live ?? recorded!.live
    guard state.t - lastSampleT >= 1 / rate else { return }
    lastSampleT = state.t
    outbox.append(.sample(state))
  }

  private mutating func deliver() {
    guard !scratch.isEmpty else { return }
    for event in scratch { outbox.append(.analyzer(event)) }
    scratch.removeAll(keepingCapacity: true)
  }
}
