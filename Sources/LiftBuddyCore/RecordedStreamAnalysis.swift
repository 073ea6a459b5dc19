/// A recorded stream (the contract's file format) fed through the analyzer:
/// what `analyze` does with a file, and what a replay at `--speed max` does
/// with the same bytes. Takes the bytes in chunks of any size, so nothing
/// holds a whole file.
///
/// The analyzer is created when the header is complete, because the header
/// says what the session was: its exercise, load, start time and rate.
public struct RecordedStreamAnalysis: Sendable {
  /// What to call the source in reports (`replay:<file name>`).
  public let sourceName: String
  public let configuration: AnalyzerConfiguration
  /// Exercise and load from the command line win over the header's.
  public var exerciseOverride: Exercise?
  public var loadOverride: Double?

  private var reader: StreamReader
  private var state: State

  public init(
    sourceName: String, configuration: AnalyzerConfiguration = .init(),
    exercise: Exercise? = nil, loadKg: Double? = nil
  ) {
    self.sourceName = sourceName
    self.configuration = configuration
    exerciseOverride = exercise
    loadOverride = loadKg
    reader = StreamReader(defaultRateHz: configuration.nominalRateHz)
    state = State()
  }

  /// The session the analyzer runs (nil before the header is complete).
  public var session: SessionInfo? { state.analyzer?.session }
  public var totals: QualityCounts { state.analyzer?.totals ?? QualityCounts() }

  /// The session a recording's header describes: shared with the daemon's
  /// replay source so both label and time reports identically.
  public static func session(
    for header: StreamHeader, sourceName: String, exercise: Exercise?, loadKg: Double?
  ) -> SessionInfo {
    SessionInfo(
      source: sourceName, wallClockOrigin: header.startedAtUnix ?? 0,
      exercise: exercise ?? header.exercise.flatMap(Exercise.init(rawValue:)),
      loadKg: loadKg ?? header.loadKg.flatMap { $0 >= 0 && $0.isFinite ? $0 : nil })
  }

  public mutating func append(_ bytes: UnsafeRawBufferPointer, into events: inout [AnalyzerEvent]) {
    var reader = StreamReader(defaultRateHz: 1)
    swap(&reader, &self.reader)
    var state = State()
    swap(&state, &self.state)
    let setup = Setup(self)
    reader.append(bytes) { row in state.handle(row, setup: setup, into: &events) }
    swap(&reader, &self.reader)
    swap(&state, &self.state)
  }

  public mutating func finish(into events: inout [AnalyzerEvent]) {
    let setup = Setup(self)
    var state = self.state
    self.state = State()
    reader.finish { row in state.handle(row, setup: setup, into: &events) }
    state.ensureAnalyzer(header: reader.header, setup: setup)
    state.analyzer!.finish(into: &events)
    self.state = state
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

  private struct Setup {
    var sourceName: String
    var configuration: AnalyzerConfiguration
    var exercise: Exercise?
    var loadKg: Double?
    init(_ a: RecordedStreamAnalysis) {
      sourceName = a.sourceName
      configuration = a.configuration
      exercise = a.exerciseOverride
      loadKg = a.loadOverride
    }
  }

  private struct State: Sendable {
    var analyzer: Analyzer? = nil

    mutating func ensureAnalyzer(header: StreamHeader, setup: Setup) {
      guard analyzer == nil else { return }
      let session = RecordedStreamAnalysis.session(
        for: header, sourceName: setup.sourceName, exercise: setup.exercise, loadKg: setup.loadKg)
      var a = Analyzer(configuration: setup.configuration, session: session)
      if let rate = header.rateHz { a.setNominalRate(rate) }
      analyzer = a
    }

    mutating func handle(_ row: StreamRow, setup: Setup, into events: inout [AnalyzerEvent]) {
      switch row {
      case .header(let header):
        ensureAnalyzer(header: header, setup: setup)
      case .line(let t, let bytes):
        if analyzer == nil { ensureAnalyzer(header: StreamHeader(), setup: setup) }
        analyzer!.ingest(line: bytes, at: t, into: &events)
      case .rejected(let why):
        if analyzer == nil { ensureAnalyzer(header: StreamHeader(), setup: setup) }
        analyzer!.countRejected(why)
      }
    }
  }
}
