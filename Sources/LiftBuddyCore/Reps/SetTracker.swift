/// Groups confirmed reps into sets and turns a finished set into its report.
///
/// A set starts with its first rep and ends after a rest (no new rep for
/// `setRestS`), on command, or at the end of the stream. Exercise and load
/// are fixed when the set starts, so changing them mid-set affects the next.
struct SetTracker: Sendable {
  /// A set longer than this is no set (a stream of noise that passed every
  /// test, a sensor on a machine): it is closed and a new one opened, which
  /// bounds the memory a set holds. The longest real sets are ~100 reps.
  static let maxRepsPerSet = 500
  /// The set's band (bottom and top) is the median of this many latest reps:
  /// it follows a lifter whose depth drifts, and one odd rep moves it little.
  static let bandReps = 5

  struct OpenSet: Sendable {
    var number: Int
    var id: String
    var exercise: Exercise?
    var loadKg: Double?
    var startS: Double
    var reps: [RepAnalysis] = []
    var ends: [RepRules.Ends] = []
  }

  /// A rep told as provisional, waiting for its proof.
  struct Provisional: Sendable {
    var analysis: RepAnalysis
    var eccentricStartS: Double?
    var ends: RepRules.Ends
    var setID: String
    var setNumber: Int
    var exercise: Exercise?
    var loadKg: Double?
    var cameDownFirst: Bool
    /// The rise it was measured on (its valley's time identifies it).
    var riseValleyT: Double
    /// When the bar left its top (nil while it is still there).
    var leftTopT: Double?
    /// Whether the bar stood at its top (a lockout) before leaving it.
    var stoodAtTop: Bool
    /// How long the drive took through the middle of its range, scaled to
    /// the whole (`RepMeasurer.riseDuration`; 0 when it could not be told).
    var droveS: Double
    /// Whether its ramp was seen (`RepMeasurer.Measured.rampSeen`); if
    /// not, only a descent seen on the way back confirms it.
    var rampSeen: Bool
    /// Whether only a second rep of its set confirms it
    /// (`RepRules.shortForTheSession`): neither its return nor the set's
    /// end does.
    var awaitsNextRep: Bool
  }

  private(set) var open: OpenSet? = nil
  private(set) var provisional: Provisional? = nil
  private(set) var setsStarted = 0
  /// The shortest range among the session's sets so far: the median ROM
  /// of each closed set, a set of one included. A false set only lowers
  /// it, so it never makes the rule stricter than the sets lifted; a
  /// heavy single is the lifter's range as much as a set of five. Counted
  /// from two reps (`RepRules.establishedSetReps`), a session of singles
  /// had none: a spotters' lift of 24 cm after a squat single of 61
  /// (independent 570110) and a sonar's 18-cm switch under a bench bar
  /// parked after a single of 30 (410093) were sets of one. 11,340
  /// looked-at: reports that were no set 14 → 12, invented 2 fewer,
  /// missed 1 more (two squat singles measured at half their range,
  /// 31.6 cm of 66, lost; one found); eleven held-out sets: no set 7 → 6,
  /// exact 97.6 → 97.7 %, nothing lost; ours unchanged.
  private(set) var shortestSetRomCm: Double? = nil

  var repsInSet: Int { open?.reps.count ?? 0 }
  /// When the set's last rep locked out.
  var lastRepEndS: Double? { open?.reps.last?.report.concentricEndS }
  /// When the last rep, final or provisional, locked out: the rest counts
  /// from there.
  var lastActivityEndS: Double? {
    provisional?.analysis.report.concentricEndS ?? lastRepEndS
  }
  var maxRomInSetCm: Double { open?.reps.map(\.report.romCm).max() ?? 0 }

  /// Whether the set (or a lone provisional rep) has rested long enough to
  /// end: no rep for `restS`, and the bar has not turned after a swing as
  /// large as a rep's since the last one within `restS` (the next descent
  /// or rise of a slow lifter keeps the set going).
  func restIsOver(now: Double, lastSwingT: Double?, restS: Double) -> Bool {
    guard let lastEnd = lastActivityEndS, now - lastEnd > restS else { return false }
    if let turn = lastSwingT, turn > lastEnd, now - turn < restS { return false }
    return true
  }

  /// The set's own bottom and top: the median of its latest reps' ends.
  var band: RepRules.Ends? {
    guard let ends = open?.ends.suffix(Self.bandReps), !ends.isEmpty else { return nil }
    return RepRules.Ends(
      bottomCm: Self.median(ends.map(\.bottomCm)), topCm: Self.median(ends.map(\.topCm)))
  }

  /// Adds a final rep, opening the set if none is open. Returns the events
  /// to publish (a set start, then the rep).
  mutating func add(
    _ rep: RepAnalysis, ends: RepRules.Ends, eccentricStartS: Double?, session: SessionInfo,
    into events: inout [AnalyzerEvent]
  ) {
    if open == nil {
      let startS = Self.startS(rep, eccentricStartS: eccentricStartS)
      openSet(
        id: Self.id(session: session, startS: startS, number: setsStarted + 1),
        exercise: session.exercise, loadKg: session.loadKg, startS: startS, into: &events)
    }
    append(rep, ends: ends, into: &events)
  }

  /// Tells a first rep as provisional (or tells it again, re-measured).
  mutating func propose(
    _ rep: RepAnalysis, ends: RepRules.Ends, eccentricStartS: Double?, cameDownFirst: Bool,
    riseValleyT: Double, stoodAtTop: Bool, droveS: Double, rampSeen: Bool, awaitsNextRep: Bool,
    session: SessionInfo, into events: inout [AnalyzerEvent]
  ) {
    let number = setsStarted + 1
    // Told again for the same rise (the bar went higher): the same id, so a
    // client replaces what it showed.
    let id =
      provisional.flatMap { $0.riseValleyT == riseValleyT ? $0.setID : nil }
      ?? Self.id(
        session: session, startS: Self.startS(rep, eccentricStartS: eccentricStartS),
        number: number)
    var report = rep.report
    report.index = 1
    var analysis = rep
    analysis.report = report
    provisional = Provisional(
      analysis: analysis, eccentricStartS: eccentricStartS, ends: ends, setID: id,
      setNumber: number, exercise: session.exercise, loadKg: session.loadKg,
      cameDownFirst: cameDownFirst, riseValleyT: riseValleyT, leftTopT: nil,
      stoodAtTop: stoodAtTop, droveS: droveS, rampSeen: rampSeen, awaitsNextRep: awaitsNextRep)
    events.append(
      .provisionalRep(
        RepEvent(
          setID: id, setNumber: number, exercise: session.exercise?.rawValue,
          loadKg: session.loadKg, rep: report, velocityLossPct: nil)))
  }

  mutating func markStoodAtTop(riseValleyT: Double) {
    if provisional?.riseValleyT == riseValleyT { provisional!.stoodAtTop = true }
  }

  mutating func markLeftTop(at t: Double) {
    if provisional != nil, provisional!.leftTopT == nil { provisional!.leftTopT = t }
  }

  /// The provisional rep stands: its set starts with it.
  mutating func confirm(into events: inout [AnalyzerEvent]) {
    guard let p = provisional else { return }
    provisional = nil
    openSet(
      id: p.setID, exercise: p.exercise, loadKg: p.loadKg,
      startS: Self.startS(p.analysis, eccentricStartS: p.eccentricStartS), into: &events)
    append(p.analysis, ends: p.ends, into: &events)
  }

  mutating func withdraw(_ reason: RepWithdrawal.Reason, into events: inout [AnalyzerEvent]) {
    guard let p = provisional else { return }
    provisional = nil
    events.append(
      .repWithdrawn(
        RepWithdrawal(
          setID: p.setID, setNumber: p.setNumber, index: p.analysis.report.index, reason: reason)))
  }

  private mutating func openSet(
    id: String, exercise: Exercise?, loadKg: Double?, startS: Double,
    into events: inout [AnalyzerEvent]
  ) {
    setsStarted += 1
    open = OpenSet(number: setsStarted, id: id, exercise: exercise, loadKg: loadKg, startS: startS)
    events.append(
      .setStarted(
        SetStarted(
          setID: id, setNumber: setsStarted, startS: startS, exercise: exercise?.rawValue,
          loadKg: loadKg)))
  }

  /// The open set's top, raised to `cm` where its only rep's rise went on
  /// higher after it was counted: a heavy press that slows toward lockout
  /// over a noisy floor can hold long enough to be counted 8–15 cm short
  /// of it (its report stays as told), and the set's next rep, locked out
  /// as high, was then no rep of the set (independent looked-at 30113). A
  /// set of two or more keeps its median: a last rep's rise going on to
  /// the hooks raised the top a re-rack then reached (70097). Nor higher
  /// than the lift travels (`maxRomCm` over the rep's bottom): a bench
  /// press's first rep, 70 to 108 cm, "went on" to a stray 178 amid a
  /// dirty sonar's echoes, and the set's next five reps were no reps of it
  /// (independent looked-at 830008; its only change in 12,540, none held
  /// out).
  mutating func raiseOnlyRepsTop(toCm cm: Double, maxRomCm: Double) {
    guard let set = open, set.ends.count == 1, cm > set.ends[0].topCm,
      cm - set.ends[0].bottomCm <= maxRomCm
    else { return }
    open!.ends[0].topCm = cm
  }

  private mutating func append(
    _ rep: RepAnalysis, ends: RepRules.Ends, into events: inout [AnalyzerEvent]
  ) {
    var rep = UnseenRamp.timed(rep, bySeen: open!.reps)
    rep.report.index = open!.reps.count + 1
    open!.reps.append(rep)
    open!.ends.append(ends)
    let set = open!
    events.append(
      .rep(
        RepEvent(
          setID: set.id, setNumber: set.number, exercise: set.exercise?.rawValue,
          loadKg: set.loadKg, rep: rep.report,
          velocityLossPct: SetSummarizer.velocityLossPct(
            meanVelocities: set.reps.map(\.report.meanVelocityMps)))))
  }

  private static func startS(_ rep: RepAnalysis, eccentricStartS: Double?) -> Double {
    ReportRounding.seconds(eccentricStartS ?? rep.report.concentricStartS)
  }

  static func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }

  /// Closes the open set and builds its report.
  mutating func close(session: SessionInfo, quality: QualityCounts) -> LiftReport? {
    guard let set = open else { return nil }
    open = nil
    guard let last = set.reps.last else { return nil }
    let reps = set.reps.map(\.report)
    let rom = Self.median(reps.map(\.romCm))
    shortestSetRomCm = min(shortestSetRomCm ?? rom, rom)
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
