/// The one analyzer shared by live capture, replay and `analyze`: a
/// synchronous state machine fed one line at a time with its receive time on
/// the source clock. It does no I/O and reads no clock, so the same lines
/// with the same times always give the same events, byte for byte.
public struct Analyzer: Sendable {
  public let configuration: AnalyzerConfiguration
  public private(set) var session: SessionInfo
  /// Counts since the start of the session.
  public private(set) var totals = QualityCounts()
  public private(set) var live = LiveState()

  public init(configuration: AnalyzerConfiguration = .init(), session: SessionInfo) {
    self.configuration = configuration
    self.session = session
  }

  /// Feeds one line (without its `\n`; a trailing `\r` is ignored) received
  /// at `t` seconds on the source clock.
  public mutating func ingest(line: UnsafeRawBufferPointer, at t: Double, into events: inout [AnalyzerEvent]) {
    totals.lines += 1
  }

  public mutating func ingest(line: String, at t: Double, into events: inout [AnalyzerEvent]) {
    var line = line
    line.withUTF8 { ingest(line: UnsafeRawBufferPointer($0), at: t, into: &events) }
  }

  /// Counts input rejected before it became a line (overlong lines, bad
  /// rows of a recorded stream), so the set's quality counts include it.
  public mutating func countRejected(_ rejection: LineRejection) {
    totals.lines += 1
    totals.badLines += 1
  }

  /// Time passes with no line (a live source that went quiet): may end a set.
  public mutating func advance(to t: Double, into events: inout [AnalyzerEvent]) {}

  /// Ends the set in progress now (a command, a lost source, shutdown),
  /// emitting its report if it has at least one rep.
  public mutating func endSet(into events: inout [AnalyzerEvent]) {}

  /// Exercise and load for the next set (the one in progress keeps its own).
  public mutating func prepareNextSet(exercise: Exercise?, loadKg: Double?) {
    session.exercise = exercise
    session.loadKg = loadKg
  }

  /// End of stream: closes the set in progress.
  public mutating func finish(into events: inout [AnalyzerEvent]) {
    endSet(into: &events)
  }
}
