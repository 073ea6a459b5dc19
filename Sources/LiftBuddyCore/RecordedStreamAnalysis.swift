/// A recorded stream (the contract's file format) fed through the analyzer:
/// the one way a recording's bytes become events, for `liftbuddy analyze`
/// and for the daemon's replay source alike, so that the two are identical
/// by construction, not by a test that holds two copies equal. Takes the
/// bytes in chunks of any size, so nothing holds a whole file.
///
/// The analyzer is created when the header is complete, because the header
/// says what the session was: its exercise, load, start time and rate. A
/// looping replay calls `rewind` between passes; times then go on growing
/// from where the pass ended.
public struct RecordedStreamAnalysis: Sendable {
  /// What to call the source in reports (`replay:<file name>`).
  public let sourceName: String
  public let configuration: AnalyzerConfiguration
  /// Exercise and load from the command line win over the header's.
  public var exerciseOverride: Exercise?
  public var loadOverride: Double?

  private var reader: StreamReader
  private var analyzer: Analyzer?
  /// Exercise and load set for the next set before the analyzer existed.
  private var nextSet: (exercise: Exercise?, loadKg: Double?)?
  /// Added to the file's times: grows by a pass's length at each rewind.
  private var timeOffset = 0.0
  /// The latest row time handed to the analyzer, offset included.
  public private(set) var latestTime = 0.0

  public init(
    sourceName: String, configuration: AnalyzerConfiguration = .init(),
    exercise: Exercise? = nil, loadKg: Double? = nil
  ) {
    self.sourceName = sourceName
    self.configuration = configuration
    exerciseOverride = exercise
    loadOverride = loadKg
    reader = StreamReader(defaultRateHz: configuration.nominalRateHz)
  }

  /// The session the analyzer runs (nil before the header is complete).
  public var session: SessionInfo? { analyzer?.session }
  public var totals: QualityCounts { analyzer?.totals ?? QualityCounts() }
  public var live: LiveState { analyzer?.live ?? LiveState() }
  /// The header read so far (complete once the first row is out).
  public var header: StreamHeader { reader.header }

  /// The session a recording's header describes.
  public static func session(
    for header: StreamHeader, sourceName: String, exercise: Exercise?, loadKg: Double?
  ) -> SessionInfo {
    SessionInfo(
      source: sourceName, wallClockOrigin: header.startedAtUnix ?? 0,
      exercise: exercise ?? header.exercise.flatMap(Exercise.init(rawValue:)),
      loadKg: loadKg ?? header.loadKg.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil })
  }

  /// Feeds the next bytes of the stream. `lines` sees every line handed to
  /// the analyzer, with its time (a recorder tees them from here).
  public mutating func append(
    _ bytes: UnsafeRawBufferPointer, into events: inout [AnalyzerEvent],
    lines: (Double, UnsafeRawBufferPointer) -> Void = { _, _ in }
  ) {
    var reader = takeReader()
    reader.append(bytes) { row in handle(row, into: &events, lines: lines) }
    self.reader = reader
  }

  /// End of the stream: the last row if it has no newline, then the end of
  /// the set in progress.
  public mutating func finish(
    into events: inout [AnalyzerEvent],
    lines: (Double, UnsafeRawBufferPointer) -> Void = { _, _ in }
  ) {
    finishPass(into: &events, lines: lines)
    analyzer!.finish(into: &events)
  }

  /// End of one pass of a looping replay: closes the set in progress and
  /// starts reading the file again, one nominal sample after this pass.
  public mutating func rewind(
    into events: inout [AnalyzerEvent],
    lines: (Double, UnsafeRawBufferPointer) -> Void = { _, _ in }
  ) {
    finishPass(into: &events, lines: lines)
    analyzer!.endSet(into: &events)
    timeOffset = latestTime + 1 / (reader.header.rateHz ?? configuration.nominalRateHz)
    reader = StreamReader(defaultRateHz: configuration.nominalRateHz)
  }

  /// Ends the set in progress now (a client's `end_set`).
  public mutating func endSet(into events: inout [AnalyzerEvent]) {
    analyzer?.endSet(into: &events)
  }

  /// Exercise and load for the next set.
  public mutating func prepareNextSet(exercise: Exercise?, loadKg: Double?) {
    if analyzer != nil {
      analyzer!.prepareNextSet(exercise: exercise, loadKg: loadKg)
    } else {
      nextSet = (exercise, loadKg)
    }
  }

  /// Exercise and load the next set will get.
  public var nextSetSession: (exercise: Exercise?, loadKg: Double?) {
    if let session = analyzer?.session { return (session.exercise, session.loadKg) }
    if let nextSet { return nextSet }
    let session = Self.session(
      for: reader.header, sourceName: sourceName, exercise: exerciseOverride, loadKg: loadOverride)
    return (session.exercise, session.loadKg)
  }

  /// Convenience for a whole buffer: the reports it gives.
  public static func reports(
    for bytes: [UInt8], sourceName: String, configuration: AnalyzerConfiguration = .init()
  ) -> [LiftReport] {
    var analysis = RecordedStreamAnalysis(sourceName: sourceName, configuration: configuration)
    var events: [AnalyzerEvent] = []
    bytes.withUnsafeBytes { analysis.append($0, into: &events) }
    analysis.finish(into: &events)
    return events.compactMap {
      if case .lift(let report) = $0 { report } else { nil }
    }
  }

  private mutating func finishPass(
    into events: inout [AnalyzerEvent], lines: (Double, UnsafeRawBufferPointer) -> Void
  ) {
    var reader = takeReader()
    reader.finish { row in handle(row, into: &events, lines: lines) }
    self.reader = reader
    ensureAnalyzer(header: reader.header)
  }

  /// Moves the reader out so that its callback may mutate `self`, leaving a
  /// cheap placeholder behind (a copy would share, then copy, its buffer).
  private mutating func takeReader() -> StreamReader {
    var reader = StreamReader(defaultRateHz: 1, maxLineLength: 0)
    swap(&reader, &self.reader)
    return reader
  }

  private mutating func ensureAnalyzer(header: StreamHeader) {
    guard analyzer == nil else { return }
    let session = Self.session(
      for: header, sourceName: sourceName, exercise: exerciseOverride, loadKg: loadOverride)
    var a = Analyzer(configuration: configuration, session: session)
    if let rate = header.rateHz { a.setNominalRate(rate) }
    if let nextSet { a.prepareNextSet(exercise: nextSet.exercise, loadKg: nextSet.loadKg) }
    nextSet = nil
    analyzer = a
  }

  private mutating func handle(
    _ row: StreamRow, into events: inout [AnalyzerEvent],
    lines: (Double, UnsafeRawBufferPointer) -> Void
  ) {
    switch row {
    case .header(let header):
      ensureAnalyzer(header: header)
    case .line(let t, let bytes):
      // Checked here, not only in `ensureAnalyzer`: building the empty
      // header to pass, then destroying it, for every row was 3 % of
      // `analyze`'s time.
      if analyzer == nil { ensureAnalyzer(header: StreamHeader()) }
      let t = t + timeOffset
      latestTime = t
      lines(t, bytes)
      analyzer!.ingest(line: bytes, at: t, into: &events)
    case .rejected(let why):
      if analyzer == nil { ensureAnalyzer(header: StreamHeader()) }
      analyzer!.countRejected(why)
    }
  }
}
