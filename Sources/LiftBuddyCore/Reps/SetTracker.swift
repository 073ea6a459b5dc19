/// Groups confirmed reps into sets and turns a finished set into its report.
///
/// A set starts with its first rep and ends after a rest (no new rep for
/// `setRestS`), on command, or at the end of the stream. Exercise and load
/// are fixed when the set starts, so changing them mid-set affects the next.
struct SetTracker: Sendable {
  struct OpenSet: Sendable {
    var number: Int
    var id: String
    var exercise: Exercise?
    var loadKg: Double?
    var startS: Double
    var reps: [RepAnalysis] = []
  }

  private(set) var open: OpenSet? = nil
  private(set) var setsStarted = 0

  var repsInSet: Int { open?.reps.count ?? 0 }
  /// When the set's last rep locked out.
  var lastRepEndS: Double? { open?.reps.last?.report.concentricEndS }
  var maxRomInSetCm: Double { open?.reps.map(\.report.romCm).max() ?? 0 }

  /// Adds a measured rep, opening a set if none is open. Returns the events
  /// to publish (a set start, then the rep).
  mutating func add(
    _ rep: RepAnalysis, eccentricStartS: Double?, session: SessionInfo
  ) -> [AnalyzerEvent] {
    var events: [AnalyzerEvent] = []
    if open == nil {
      setsStarted += 1
      let startS = ReportRounding.seconds(eccentricStartS ?? rep.report.concentricStartS)
      let id = Self.id(session: session, startS: startS, number: setsStarted)
      open = OpenSet(
        number: setsStarted, id: id, exercise: session.exercise, loadKg: session.loadKg,
        startS: startS)
      events.append(
        .setStarted(
          SetStarted(
            setID: id, setNumber: setsStarted, startS: startS,
            exercise: session.exercise?.rawValue, loadKg: session.loadKg)))
    }
    open!.reps.append(rep)
    let set = open!
    events.append(
      .rep(
        RepEvent(
          setID: set.id, setNumber: set.number, exercise: set.exercise?.rawValue,
          loadKg: set.loadKg, rep: rep.report,
          velocityLossPct: SetSummarizer.velocityLossPct(
            meanVelocities: set.reps.map(\.report.meanVelocityMps)))))
    return events
  }

  /// Closes the open set and builds its report.
  mutating func close(session: SessionInfo, quality: QualityCounts) -> LiftReport? {
    guard let set = open else { return nil }
    open = nil
    guard let last = set.reps.last else { return nil }
    let reps = set.reps.map(\.report)
    let endS = last.report.concentricEndS
    return LiftReport(
      id: set.id, source: session.source, exercise: set.exercise?.rawValue, loadKg: set.loadKg,
      startedAt: RFC3339Formatter.string(unixSeconds: session.wallClockOrigin + set.startS),
      endedAt: RFC3339Formatter.string(unixSeconds: session.wallClockOrigin + endS),
      startS: set.startS, endS: endS, reps: reps,
      summary: SetSummarizer.summary(for: reps, exercise: set.exercise, loadKg: set.loadKg),
      recommendations: Coach.recommendations(
        for: set.reps, exercise: set.exercise, loadKg: set.loadKg),
      quality: quality)
  }

  /// `<UTC start, to the second>-<source>-<set number>`: unique within a
  /// session, stable across replays of the same recording, safe as a file
  /// name.
  static func id(session: SessionInfo, startS: Double, number: Int) -> String {
    let when = RFC3339Formatter.compact(unixSeconds: session.wallClockOrigin + startS)
    let source = String(
      session.source.unicodeScalars.map { c -> Character in
        (c.properties.isAlphabetic && c.isASCII) || ("0"..."9").contains(c) || c == "." || c == "_"
          ? Character(c) : "-"
      })
    return "\(when)-\(source)-\(number)"
  }
}
