import DequeModule

/// The one analyzer shared by live capture, replay and `analyze`: a
/// synchronous state machine fed one line at a time with its receive time on
/// the source clock. It does no I/O and reads no clock, so the same lines
/// with the same times always give the same events, byte for byte.
///
/// Stages, each its own type: `LineParser` → `SampleClock` (sample times
/// from arrival times) → `Despiker` → `MovingAverage` → `TurnFinder`
/// (online) → `RepMeasurer` (on the buffered samples of a rise, at its top)
/// → `RepRules` (is it a rep: final, provisional, withdrawn) → `SetTracker`
/// → `Coach`. Memory is bounded by the longest rep (`maxRepBufferS`) plus
/// the set's reps (`SetTracker.maxRepsPerSet`), never by the session's
/// length.
public struct Analyzer: Sendable {
  /// Minimum concentric rise per exercise, in cm. Unracking, re-racking and
  /// walk-outs move the bar 3–8 cm; the shortest full-range lift, a bench
  /// press by a lifter with short arms and a big arch, still travels ~20 cm.
  /// Partial reps above these still count and are flagged by the coach. A
  /// deadlift from the floor (bar at 22 cm) locks out above the knees: even
  /// a short lifter pulling sumo moves it 35 cm or more, while jacking the
  /// bar for plates, rolling it and set-up tugs move it 5–25 cm (measured on
  /// the tune split: 18 cm counted a jacked bar as a rep). With no
  /// exercise named, the shortest full-range lift's travel, 20 cm: a
  /// partial under it is counted only for a lift named, and what rose
  /// 15–20 cm with none named was the bar handled (a jack, a sonar
  /// switching under the bar on the hooks or on the floor in a rest, a
  /// spotter's lift): at 15, 6,540 looked-at independent streams had
  /// 13 reports that were no set, at 20, 9 (invented 92 → 83, one missed
  /// rep fewer); ours unchanged.
  static func defaultMinRiseCm(_ exercise: Exercise?) -> Double {
    switch exercise {
    case .benchPress: 12
    case .squat, .overheadPress: 18
    case .deadlift: 30
    case nil: shortestFullRangeCm
    }
  }
  /// The shortest full-range lift's travel: a bench press by a lifter with
  /// short arms and a big arch.
  static let shortestFullRangeCm = 20.0
  /// Within a set, a rise smaller than this share of the set's deepest rep
  /// is a rack adjustment or a bounce, not a rep.
  static let minRiseShareOfSet = 0.4
  /// No rep lasts longer than this from the top before it to its lockout;
  /// older samples are dropped, which bounds memory on any stream.
  static let maxRepBufferS = 30.0
  /// Silence longer than this is not bridged by the smoother.
  static let maxBridgeS = 1.0
  /// A live source silent this long has stopped rather than stalled (BLE
  /// stalls last up to about half a second): what is held back is released.
  static let quietS = 1.0
  /// A bottom this close after a gap in the readings may have been lower
  /// (the bar turned while the sonar was silent).
  static let gapNearBottomS = 0.5

  public let configuration: AnalyzerConfiguration
  public private(set) var session: SessionInfo
  /// Counts since the start of the session.
  public private(set) var totals = QualityCounts()
  public private(set) var live = LiveState()

  private var pending = QualityCounts()  // since the last set report
  private var clock: SampleClock
  private var despiker = Despiker()
  private var sonarRate = RateLimit.sonar
  private var attitudeRate = RateLimit.attitude
  private var smoother: MovingAverage
  private var turns = TurnFinder()
  private var noise = SonarNoise()
  /// When the bar last turned after a swing as large as a rep's
  /// (`minRiseCm`): the lifter going on with the set. Smaller turns (steps
  /// of a walk-out, a bar jostled on the floor, a noisy sonar's wander)
  /// do not hold a set open past its rest.
  private var lastSwingT: Double? = nil
  /// The valley of a rise whose top was held (`TurnFinder.Turn.topHeld`)
  /// but not yet settled: should the bar leave it first, it still stood.
  private var heldUnsettledValleyT: Double? = nil
  private var turnScratch: [TurnFinder.Turn] = []
  /// The rise last measured (its valley's time and its top), so a top told
  /// again is measured again only if the bar went higher.
  private var measuredRise: (valleyT: Double, topCm: Double)? = nil
  /// A rise measured and judged but not (yet) counted: what it measured,
  /// its ends, and the turn finder's rise that names it.
  private typealias JudgedRise = (
    measured: RepMeasurer.Measured, ends: RepRules.Ends, rise: TurnFinder.Rise
  )
  /// A rep-like rise that did not belong to the open set: the first of a
  /// new one if the next rise matches it.
  private var stranger: JudgedRise? = nil
  /// The rises outside a set refused as a set's first rep only because
  /// the sonar read no stand before their descents, in a row, each the rep
  /// before the next (`RepRules.repBeforeFirst`): counted before the set's
  /// first rep if that rep came down from the last one's top. At most
  /// `RepRules.maxRepsBeforeFirst`.
  private var unstood: [JudgedRise] = []
  /// When the last final rep's concentric phase began (any set).
  private var lastCountedStartS: Double? = nil
  /// The valley time of the last rise counted as a final rep.
  private var countedRiseValleyT: Double? = nil
  private let measurer: RepMeasurer
  private var sets = SetTracker()
  private var heights: Deque<TimedHeight> = []
  private var frozen = FrozenSonar()
  private var attitude = AttitudeLog()
  /// When readings last resumed after a gap: a bottom next to one was not
  /// seen, so it proves nothing against a rep.
  private var lastGapEndT: Double? = nil
  /// The latest spans in which the sonar itself was silent (before the
  /// despiker, which also leaves holes: the readings of a move too fast for
  /// a bar), at most `maxSilences`: a descent across one is not timed.
  private var silences: Deque<ClosedRange<Double>> = []
  private var lastArrivalT: Double? = nil
  static let maxSilences = 16
  /// Every reading in range, kept or not, over `maxRepBufferS` and at most
  /// `maxAnswered`: what the sonar sent across a dropout in the kept
  /// readings (`RepMeasurer.seenMoving`'s `answered`).
  private var answered: Deque<TimedHeight> = []
  /// 30 s at 100 Hz, and more: a flood at one instant must not grow it.
  static let maxAnswered = 4096
  private var lastSmoothed: TimedHeight? = nil
  private var arrivalLag = 0.0
  private var spikesCounted = 0
  private var scratchClock: [TimedHeight] = []
  private var scratchClean: [TimedHeight] = []

  public init(configuration: AnalyzerConfiguration = .init(), session: SessionInfo) {
    self.configuration = configuration
    self.session = session
    clock = SampleClock(nominalRateHz: configuration.nominalRateHz)
    smoother = MovingAverage(windowS: configuration.smoothingWindowS)
    measurer = RepMeasurer(
      smoother: configuration.smoother,
      windowS: configuration.smoothingWindowS * RepMeasurer.measurementWindowFactor)
    scratchClock.reserveCapacity(64)
    scratchClean.reserveCapacity(64)
  }

  /// The sonar rate a recording's header declares (`rate_hz`), used until
  /// the clock has measured its own.
  public mutating func setNominalRate(_ hz: Double) {
    clock.setNominalRate(hz)
  }

  /// Feeds one line (without its `\n`; a trailing `\r` is ignored) received
  /// at `t` seconds on the source clock.
  public mutating func ingest(
    line: UnsafeRawBufferPointer, at t: Double, into events: inout [AnalyzerEvent]
  ) {
    count(\.lines)
    guard t.isFinite else {
      count(\.badLines)
      return
    }
    switch LineParser.parse(line) {
    case .rejected:
      count(\.badLines)
    case .reading(.attitude(let pitch, let roll, _)):
      guard attitudeRate.admit(at: t) else {
        count(\.droppedLines)
        return
      }
      attitude.append(t: t - arrivalLag, pitch: pitch, roll: roll)
      live.pitchDeg = pitch
      live.rollDeg = roll
    case .reading(.sonar(let cm, let deviceMillis)):
      guard sonarRate.admit(at: t) else {
        count(\.droppedLines)
        return
      }
      var out = swapOut(&scratchClock)
      clock.push(arrival: t, cm: cm, deviceMillis: deviceMillis) { out.append($0) }
      if let newest = out.last { arrivalLag = max(0, t - newest.t) }
      despike(out, into: &events)
      scratchClock = out
      // Judge the rest on what the signal has shown so far: the despiker
      // looks ahead, so the newest line is a little ahead of it.
      checkRest(now: live.t, into: &events)
    }
  }

  public mutating func ingest(line: String, at t: Double, into events: inout [AnalyzerEvent]) {
    var line = line
    line.withUTF8 { ingest(line: UnsafeRawBufferPointer($0), at: t, into: &events) }
  }

  /// Counts input rejected before it became a line (overlong lines, bad
  /// rows of a recorded stream), so the set's quality counts include it.
  public mutating func countRejected(_ rejection: LineRejection) {
    count(\.lines)
    count(\.badLines)
  }

  /// Time passes with no line (a live source that went quiet): releases
  /// held samples and may end a set after its rest.
  public mutating func advance(to t: Double, into events: inout [AnalyzerEvent]) {
    // Only a source that has been silent longer than any stall is flushed:
    // flushing mid-stream would restart the despiker's windows.
    if let latest = clock.latestTime, t - latest > Self.quietS {
      flushSignal(into: &events)
    }
    checkRest(now: t, into: &events)
  }

  /// Ends the set in progress now (a command, a lost source, shutdown),
  /// emitting its report if it has at least one rep.
  public mutating func endSet(into events: inout [AnalyzerEvent]) {
    stranger = nil
    resolveProvisional(into: &events)
    if let report = sets.close(session: session, quality: pending) {
      events.append(.lift(report))
      pending = QualityCounts()
    }
  }

  /// Exercise and load for the next set (the one in progress keeps its own).
  public mutating func prepareNextSet(exercise: Exercise?, loadKg: Double?) {
    session.exercise = exercise
    session.loadKg = loadKg
  }

  /// End of stream: releases everything held back, counts a rep that ends
  /// at the last sample, and closes the set in progress.
  public mutating func finish(into events: inout [AnalyzerEvent]) {
    flushSignal(into: &events)
    var found = swapOutTurns()
    turns.flush { found.append($0) }
    handle(found, now: live.t, into: &events)
    endSet(into: &events)
  }

  // MARK: - Stages

  private mutating func flushSignal(into events: inout [AnalyzerEvent]) {
    var out = swapOut(&scratchClock)
    clock.flush { out.append($0) }
    despike(out, into: &events)
    scratchClock = out
    var clean = swapOut(&scratchClean)
    despiker.flush { clean.append($0) }
    keep(clean, into: &events)
    scratchClean = clean
  }

  private mutating func despike(_ samples: [TimedHeight], into events: inout [AnalyzerEvent]) {
    guard !samples.isEmpty else { return }
    var clean = swapOut(&scratchClean)
    for s in samples {
      if let last = lastArrivalT, s.t - last > SampleClock.lostSamplePeriods * clock.period {
        if silences.count == Self.maxSilences { silences.removeFirst() }
        silences.append(last...s.t)
      }
      lastArrivalT = s.t
      if Despiker.plausibleRange.contains(s.cm) {
        if answered.count == Self.maxAnswered { answered.removeFirst() }
        answered.append(s)
        while let first = answered.first, s.t - first.t > Self.maxRepBufferS {
          answered.removeFirst()
        }
      }
      despiker.push(s) { clean.append($0) }
    }
    keep(clean, into: &events)
    scratchClean = clean
  }

  private mutating func keep(_ samples: [TimedHeight], into events: inout [AnalyzerEvent]) {
    let removed = despiker.removed
    if removed > spikesCounted {
      totals.spikesRemoved += removed - spikesCounted
      pending.spikesRemoved += removed - spikesCounted
      spikesCounted = removed
    }
    for s in samples { track(s, into: &events) }
  }

  private mutating func track(_ s: TimedHeight, into events: inout [AnalyzerEvent]) {
    // A frozen sonar's repeats are silence (`FrozenSonar`).
    let wasFrozen = frozen.runIsUnlikely
    if frozen.isRepeat(s, noiseCm: noise.sigmaCm) { return }
    // On a whole-cm clip, whose repeats stay in, a run longer than a
    // resting bar repeats by chance (`FrozenSonar.runIsUnlikely`) that
    // ended beyond the hysteresis says nothing of the path the bar took
    // while it lasted: averaged with the readings after it, its repeats
    // hold the smoothed track where the bar was not (a touch-and-go pull
    // frozen through the floor, `FrozenSonarTests`; blind looked-at
    // 7000166, a squat frozen at 101 cm for 1.8 s from a quarter of the
    // way up through its lockout, counted only with this and
    // `TrackGate.stuckSince` both). The smoother starts again from the
    // reading. Not after a run the bar ended near: a bar resting on the
    // floor, read quieter than the stream's noise, lost a deadlift single
    // to the restart (independent 750093). Nor on a millimetre clip, whose
    // frozen repeats are silence already: a squat after a run of 121.0
    // read 64.1 cm for 60.8 (independent 220131, `StuckReadingsTests`).
    // Likewise after a run of any length that began faster than a bar
    // stops, once the gate sees the bar again beyond a resting bar's reach
    // (`TrackGate.thawedT`): a quiet clip's run is never unlikely by its
    // length alone (blind looked-at 7000219, σ 0.35 cm). Restarted after
    // any run the gate reached across (runs begun at 15 cm/s), a paused
    // bench press's chest read as a run took an echo at 20 cm after it for
    // the bar (independent 490109: two reps lost).
    let leftUnlikelyRun =
      wasFrozen && !frozen.runIsUnlikely
      && heights.last.map({ abs(s.cm - $0.cm) > turns.hysteresisCm }) ?? false
    if despiker.readsWholeCm, leftUnlikelyRun || despiker.thawedT == s.t {
      smoother.reset()
    }
    if let previous = heights.last {
      let silence = s.t - previous.t
      if silence > SampleClock.lostSamplePeriods * clock.period {
        count(\.gaps)
        lastGapEndT = s.t
      }
      if silence > Self.maxBridgeS { smoother.reset() }
    }
    heights.append(s)
    while let first = heights.first, s.t - first.t > Self.maxRepBufferS { heights.removeFirst() }
    // No measurement looks at tilt older than the heights it measures.
    if let first = heights.first { attitude.trim(before: first.t - 1) }

    let smoothed = smoother.push(s)
    if let previous = lastSmoothed, smoothed.t > previous.t {
      live.velocityMps = (smoothed.cm - previous.cm) / (smoothed.t - previous.t) / 100
    }
    lastSmoothed = smoothed
    live.t = s.t
    live.heightCm = smoothed.cm

    noise.push(s)
    // The smoother averages the readings of its window: their noise falls
    // by the square root of how many there are.
    let perWindow = max(1, configuration.smoothingWindowS / clock.period)
    turns.noiseCm = noise.sigmaCm / perWindow.squareRoot()
    despiker.noiseCm = noise.sigmaCm
    var found = swapOutTurns()
    turns.sonarFrozen = frozen.runIsUnlikely
    turns.push(smoothed) { found.append($0) }
    handle(found, now: s.t, into: &events)
  }

  private mutating func handle(
    _ found: [TurnFinder.Turn], now: Double, into events: inout [AnalyzerEvent]
  ) {
    for turn in found {
      noteSwing(turn)
      switch turn {
      case .topHeld(let rise):
        sets.markStoodAtTop(riseValleyT: rise.valley.t)
        heldUnsettledValleyT = rise.valley.t
        if let band = sets.band, RepRules.heldAtTheSetsLockout(rise, band: band) {
          considerAtItsLockout(rise, into: &events)
        }
      case .topSettled(let rise):
        heldUnsettledValleyT = nil
        consider(rise, stood: true, into: &events)
      case .topLeft(let rise):
        consider(rise, stood: heldUnsettledValleyT == rise.valley.t, into: &events)
        heldUnsettledValleyT = nil
        sets.markLeftTop(at: now)
      case .bottom(let bottom, let rising, let from):
        checkReturn(to: bottom, leaving: rising, from: from, into: &events)
      }
    }
    turnScratch = found
  }

  /// A rise held where the set's reps lock out is measured when it holds
  /// (`TurnFinder.stillS`), not when it settles: over a noisy floor the
  /// settle waits longer (0.30 s at 1 cm of smoothed noise) for a crawl
  /// through a sticking region to show itself, and no sticking region
  /// lies at the lockout (`RepRules.heldAtTheSetsLockout`). Should the rise
  /// not count then (its measurement wants readings the top has not yet
  /// given), it is measured again when it settles, as any other.
  private mutating func considerAtItsLockout(
    _ rise: TurnFinder.Rise, into events: inout [AnalyzerEvent]
  ) {
    let measuredBefore = measuredRise
    consider(rise, stood: true, into: &events)
    if countedRiseValleyT != rise.valley.t { measuredRise = measuredBefore }
  }

  /// A swing as large as a rep keeps a set from ending (`SetTracker.restIsOver`)
  /// only when the readings crossed its middle: a sonar switching between
  /// the floor and a plate under a bar put down for the rest reads two
  /// levels 21 cm apart in turns of a few readings, whose smoothed swings
  /// kept an 80-s rest in one set (independent looked-at seed 9034).
  private mutating func noteSwing(_ turn: TurnFinder.Turn) {
    let swing: (from: TimedHeight, to: TimedHeight)
    switch turn {
    case .topLeft(let rise): swing = (rise.valley, rise.peak)
    case .bottom(let low, rising: true, from: let top?): swing = (top, low)
    default: return
    }
    let size = abs(swing.to.cm - swing.from.cm)
    guard size >= minRiseCm,
      sets.band.map({
        size >= RepRules.minShareOfSessionRom * $0.rangeCm
          && size <= Self.maxSwingShareOfSet * $0.rangeCm
      }) ?? true,
      RepMeasurer.crossed(heights, from: swing.from, to: swing.to, noiseCm: noise.sigmaCm)
    else { return }
    lastSwingT = max(lastSwingT ?? swing.to.t, swing.to.t)
  }
  /// A swing is as large as a rep when it spans as much of the set's range
  /// as a set's first rep must of the session's
  /// (`RepRules.minShareOfSessionRom`, two thirds): a lifter's next
  /// descent or rise does; a sonar switching under a bench bar racked
  /// after a single of 32 cm, between the floor under the hooks (97 cm)
  /// and a target 18–23 cm nearer, does not, and its swings (over the
  /// lift's minimum rise) kept the single's set open for 14 s, long enough
  /// for two of its switches 11 s apart to pair as a new set's first two
  /// reps (independent looked-at 1450013). Looked-at 12,540: invented 155
  /// → 152, nothing lost; 1,200 more looked-at (seeds 1400000–1490119): no
  /// set 2 → 1, invented 21 → 18; ours held-out invented 12 → 10; tune,
  /// sweep and samples unchanged; fifteen held-out sets invented 36 → 35.
  ///
  /// Nor does a swing much larger than the set's reps: a bar put down on
  /// the floor from the shoulders after a set of presses (85 cm against
  /// 49) is the set left, not the next rep's descent begun.
  static let maxSwingShareOfSet = 1.5

  /// A rise at its top: measured, then judged by `RepRules`.
  private mutating func consider(
    _ rise: TurnFinder.Rise, stood: Bool, into events: inout [AnalyzerEvent]
  ) {
    // A counted rise that goes on higher: the set's band learns its top.
    if countedRiseValleyT == rise.valley.t {
      sets.raiseOnlyRepsTop(
        toCm: rise.peak.cm,
        maxRomCm: RepRules.maxRomCm(sets.open.map { $0.exercise } ?? session.exercise))
    }
    guard rise.peak.cm - rise.valley.cm >= minRiseCm, countedRiseValleyT != rise.valley.t else {
      return
    }
    if let last = measuredRise, last.valleyT == rise.valley.t,
      rise.peak.cm <= last.topCm + turns.stillToleranceCm
    {
      return
    }
    // A set's rep is not measured while the bar may still be creeping up
    // to its lockout (`creepingUp`): its top is told again at the next
    // hold.
    if sets.band != nil, creepingUp() {
      turns.unsettleTop()
      return
    }
    measuredRise = (rise.valley.t, rise.peak.cm)
    let from = (rise.previousPeak?.t ?? rise.valley.t) - 2 * configuration.smoothingWindowS - 1
    let samples = Array(heights.drop { $0.t < from })
    // The rise as the bar made it (a deadlift's from the floor it lay on)
    // is what is measured and judged; `rise`, the turn finder's, keeps
    // naming it (its valley's time is how the set tracker knows it).
    let anchored =
      session.exercise == .deadlift
      ? RepRules.anchoredAtRest(rise, samples: samples, noiseCm: noise.sigmaCm) : rise
    // Measured without the echoes under its bottom where those are known
    // (`BottomEchoes`), and as read if that measures nothing: the track
    // gate may have followed the echoes and dropped the bar's own ramp,
    // and the rise as read at least counts.
    // Outside a set, a rise that came down first is proved a round trip
    // by a descent the gate kept (`RepMeasurer.seenMoving`'s
    // `strictDescent`), unless the lift named is eccentric-first: a squat's
    // or bench press's first rep is lowered from the unrack, and over a
    // dirty floor its descent keeps fewer readings (looked-at 30025,
    // 100132, 2,400 more 600063: first reps lost when asked of every lift).
    let maxRomCm = RepRules.maxRomCm(sets.open.map { $0.exercise } ?? session.exercise)
    // Judged on the sample times known now, and reported from the same rep
    // measured again on the times revised since (`ClockHindsight`).
    let strictDescent = sets.band == nil && session.exercise?.isEccentricFirst != true
    func measure(_ samples: [TimedHeight], _ lift: TurnFinder.Rise) -> RepMeasurer.Measured? {
      guard
        var measured = measurer.measure(
          samples: samples, rise: lift, index: sets.repsInSet + 1, minRiseCm: minRiseCm,
          maxRomCm: maxRomCm, attitude: attitude, noiseCm: noise.sigmaCm, answered: sent,
          strictDescent: strictDescent)
      else { return nil }
      let hindsight = clock.hindsight
      // Whether the readings its ends are fitted on (`RepMeasurer.fitRestS`
      // either side) moved.
      let judged = measured.judged
      let fitFrom = judged.startS - RepMeasurer.fitRestS
      let fitTo = judged.startS + judged.durationS + RepMeasurer.fitRestS
      if let revised = hindsight.retimed(
        samples, period: clock.period, within: fitFrom...fitTo),
        let again = measurer.measure(
          samples: revised, rise: Self.retimed(lift, by: hindsight),
          index: sets.repsInSet + 1, minRiseCm: minRiseCm, maxRomCm: maxRomCm,
          attitude: attitude, noiseCm: noise.sigmaCm,
          answered: { from, to in self.sent(from: from, to: to, by: hindsight) },
          strictDescent: strictDescent)
      {
        measured.analysis = again.analysis
      }
      return measured
    }
    var lift = anchored
    var measured: RepMeasurer.Measured? = nil
    if let clean = BottomEchoes.removed(
      from: samples, rise: anchored, exercise: session.exercise, band: sets.band,
      noiseCm: noise.sigmaCm, answered: sent)
    {
      lift = clean.rise
      measured = measure(clean.samples, clean.rise)
    }
    if measured?.rampSeen != true, let asRead = measure(samples, anchored),
      asRead.rampSeen || measured == nil
    {
      lift = anchored
      measured = asRead
    }
    // A set's first rep read from echoes under its pause
    // (`BottomEchoes.underThePause`): measured from the pause, where the
    // bar came down into it (an eccentric-first lift's, or no exercise
    // named). A press's or a deadlift's first rep leaves its bottom
    // without a descent into it, and a clean held at the thighs on its
    // way to the shoulders, its 0.3-s dip under the hang passing for an
    // echo run, was measured from the hang as a press (tune
    // clean-and-press 352).
    if measured == nil, sets.band == nil, session.exercise?.isEccentricFirst != false,
      rise.previousPeak != nil,
      let paused = BottomEchoes.underThePause(
        from: samples, rise: anchored, maxRomCm: maxRomCm, minRiseCm: minRiseCm,
        noiseCm: noise.sigmaCm),
      let fromPause = measure(paused.samples, paused.rise)
    {
      lift = paused.rise
      measured = fromPause
    }
    // Likewise a rise with no pause at its bottom, measured from the
    // lowest reading left within the lift's range
    // (`BottomEchoes.underTheRange`); not a press's or a deadlift's, for
    // the same clean (tune clean-and-press 352 again).
    if measured == nil, session.exercise?.isEccentricFirst != false,
      let lifted = BottomEchoes.underTheRange(
        from: samples, rise: anchored, maxRomCm: maxRomCm, minRiseCm: minRiseCm, answered: sent),
      let fromBottom = measure(lifted.samples, lifted.rise)
    {
      lift = lifted.rise
      measured = fromBottom
    }
    // A set's rise still unmeasured, on the bar's readings the gate
    // dropped after following echoes (`BottomEchoes.readmitted`), counted
    // only as a rep like the set's own (`RepRules.likeTheSetsReps`).
    if measured == nil, let band = sets.band,
      let back = BottomEchoes.readmitted(
        from: samples, answered: sent, rise: anchored,
        band: band, noiseCm: noise.sigmaCm),
      let again = measure(back.samples, back.rise),
      RepRules.likeTheSetsReps(
        again.analysis.report, band: band,
        fastestMps: sets.open?.reps.lazy.map { $0.report.meanVelocityMps }.max())
    {
      lift = back.rise
      measured = again
    }
    // A rise seen at its ends only may start a set, provisionally, and
    // nothing else (`RepMeasurer.Measured.rampSeen`).
    guard let measured,
      measured.rampSeen || (sets.band == nil && sets.provisional == nil)
    else {
      // No rep, but the bar went somewhere: a rise to another top (a clean
      // from the hips after a pick-up) is the bar taken elsewhere, and a
      // first rep still waiting for its proof was a one-way move. (Such a
      // rise was passed over, the pick-up waited, and the next pick-up,
      // after the bar was put down, confirmed it: a set of two pick-ups.)
      // A rise to the same top may be the set's next rep, measured or not.
      // One that made its round trip already is decided as at the set's
      // end (`resolveProvisional`): a squat single with no exercise named,
      // down from the stand and back, waits for nothing, and the clip
      // lifted off the bar on the hooks 8 s later took it away (independent
      // looked-at 1290086, 980042). 12,540 looked-at: missed 869 → 852 (17
      // streams each a rep better: headerless squat singles and paused
      // bench presses), nothing invented, none worse; ours unchanged;
      // thirteen held-out sets missed 100 → 95, nothing invented. (Decided
      // so at a measured rise outside its set too: seven reps more, but
      // the rise then judged beside a set just opened, and one false set.)
      if let p = sets.provisional, p.riseValleyT != rise.valley.t,
        !RepRules.sameEnd(rise.peak.cm, p.ends.topCm, rangeCm: p.ends.rangeCm)
      {
        resolveProvisional(into: &events)
      }
      return
    }
    let rep = measured.analysis.report
    // When the bar left the bottom, as the rules were measured on it
    // (`RepMeasurer.Judged`).
    let startS = measured.judged.startS
    if let previousEnd = sets.lastRepEndS, startS < previousEnd { return }

    let ends = RepRules.Ends(bottomCm: lift.valley.cm, topCm: lift.peak.cm)
    // A top read once over the stand it interrupted is no top the bar came
    // down from: the descent is judged from the stand (`strayTopAtItsStand`).
    let cameDown =
      RepRules.cameDownFirst(rise, concentricStartS: startS, minRiseCm: minRiseCm)
      || strayTopAtItsStand(rise).map {
        RepRules.cameDownFirst($0, concentricStartS: startS, minRiseCm: minRiseCm)
      } == true
    if let band = sets.band {
      // With no exercise named, the shape of the set's first rep stands in
      // for it: one measured with a descent before it (its eccentric phase)
      // is taken for a squat's or bench press's, which spotters lift
      // (looked-at 60113, 70085, 60017: invented reps 33 → 30, nothing
      // lost; tune 201–600 and ours held-out unchanged). A deadlift pulled
      // from the floor has none, and a pull retried after a stall is a rep.
      // A press lowered from the unrack has one too (the real recordings'
      // first presses): their sets still count 3 × 8. So taken, a rise out
      // of a stand part-way up goes on from a stall only where the bar was
      // pushed into that stand from the set's bottom
      // (`RepRules.pushedIntoTheStand`): two spotter's rises of headerless
      // paused bench presses counted (looked-at 60089, 100121; 36 → 34
      // invented, one more missed in 20095, a deadlift set already wrong
      // whose floor echoes set its bottom 11 cm under the floor; tune
      // 201–1000, ours held-out and both independent held-out unchanged).
      let eccentricFirst =
        session.exercise?.isEccentricFirst
        ?? (sets.open?.reps.first?.report.eccentricDurationS != nil)
      if eccentricFirst,
        session.exercise != nil
          || RepRules.pushedIntoTheStand(rise, inSet: band, samples: heights),
        RepRules.goesOnFromAStall(rise, inSet: band, noiseCm: noise.sigmaCm)
      {
        return
      }
      if eccentricFirst,
        RepRules.followsAStall(
          rise, inSet: band, samples: samples, hysteresisCm: turns.hysteresisCm,
          noiseCm: noise.sigmaCm)
      {
        return
      }
      if eccentricFirst,
        RepRules.liftedOutOfAStall(
          startS: startS, meanVelocityMps: rep.meanVelocityMps, inSet: band, samples: samples,
          noiseCm: noise.sigmaCm)
      {
        return
      }
      if RepRules.belongs(ends, toSet: band, cameDownFirst: cameDown) {
        // A squat's or bench press's rep is lowered before it is driven,
        // and no lowering steps between the set's ends faster than a bar,
        // back and forth (`RepMeasurer.jumpedAcross`): a squat walked back
        // into the rack after the set's last rep, its sonar switching
        // between the floor and the lifter's legs, read as one more rep
        // of the set's range (independent fresh 210049, 210169, 220227,
        // 230005, 250009; looked-at 40010, 70023, 70069, 90061, 100201).
        // Fresh 1,440: exact sets 97.1 → 97.2 %, invented 30 → 23, missed
        // 115 → 116; looked-at 1,020: 98.0 → 98.1 %, invented 24 → 13,
        // missed 64 → 65 (touch-and-go bench presses and a squat whose
        // descents over a dirty floor stepped as often); tune 201–1000,
        // ours held-out, the sweep, SampleStreams and the real presses
        // unchanged. Not a deadlift's or a press's: echoes mid-pull step
        // too, and such a rep is not lowered first.
        if eccentricFirst, RepMeasurer.jumpedAcross(measured.kept, rise: lift, answered: sent) {
          return
        }
        guard
          RepRules.clipStayedOnTheBar(
            tiltedShare: attitude.tiltedShare(
              in: startS...(startS + measured.judged.durationS),
              overDeg: RepRules.maxClipTiltDeg))
        else { return }
        stranger = nil
        if sets.repsInSet >= SetTracker.maxRepsPerSet { endSet(into: &events) }
        count(measured, ends: ends, rise: rise, into: &events)
        return
      }
      // Two rises in a row that are the same lift, but not the set's: the
      // set was something else (it began on a move that looked like a rep)
      // or is over; a new one starts with them.
      if let s = stranger, s.rise.valley.t != rise.valley.t,
        RepRules.belongs(ends, toSet: s.ends, cameDownFirst: cameDown)
      {
        stranger = nil
        endSet(into: &events)
        count(s.measured, ends: s.ends, rise: s.rise, into: &events)
        count(measured, ends: ends, rise: rise, into: &events)
      } else if RepRules.failedRep(ends, of: band, descentFromCm: rise.previousPeak?.cm) {
        stranger = nil
      } else {
        // A set of one may itself have begun on a move that looked like a
        // rep (a continuous set's first press cut short, its real reps
        // strangers to it); after two or more, a new set begins as any set.
        stranger =
          sets.repsInSet < RepRules.establishedSetReps
            || mayStartSetAlone(measured, rise: rise, cameDown: cameDown, samples: samples)
          ? (measured, ends, rise) : nil
      }
      return
    }
    if let p = sets.provisional, p.riseValleyT != rise.valley.t {
      // The second rep of the set the first one started: the same top, and
      // the same bottom or a round trip from that top.
      if RepRules.belongs(ends, toSet: p.ends, cameDownFirst: cameDown) {
        // Only a rise a set's first rep could have been proves one: no
        // step faster than a bar back and forth across its range
        // (`RepMeasurer.jumpedAcross`, as the set-start guard below). A
        // pick-up from the floor, carried: the carrier's legs read in runs
        // under the bar, and the step back up to it, 37 to 87 cm in one
        // period, passed for the pick-up's next rep (independent 1010058).
        // Not for a named deadlift or press: floor echoes under a pull
        // step too (a touch-and-go deadlift's second pull, 980036). 11,340
        // looked-at: reports that were no set 15 → 14, two reps fewer
        // invented (and a squat single's stray one, 250106), nothing lost;
        // ours and the eleven held-out sets unchanged.
        if p.exercise?.isEccentricFirst != false,
          RepMeasurer.jumpedAcross(
            measured.kept, rise: lift, answered: sent,
            lookbackReadings: RepMeasurer.firstRepLookbackReadings)
        {
          return
        }
        if RepRules.mayConfirmByNextRep(
          exercise: p.exercise, stoodAtTop: p.stoodAtTop, cameDownFirst: p.cameDownFirst),
          p.rampSeen || rise.previousPeak.map({ seenDescent(from: $0, to: rise.valley) }) == true
        {
          sets.confirm(into: &events)
          count(measured, ends: ends, rise: rise, into: &events)
          return
        }
        sets.withdraw(.oneWay, into: &events)
      } else {
        sets.withdraw(.outsideSet, into: &events)
      }
    }
    // No set starts with a step no bar takes amid a switching sonar
    // (`RepMeasurer.jumpedAcross`); a set's own reps are judged by its band.
    // Asked of the rise's ends and, when the rep measured in it is part of
    // it (under `minRomShareOfRise` of it), of the rep's, its top read at
    // its lockout: a squat bar on the hooks over a sonar switching between
    // 78 and 125 cm was taken on to 189 (the clip handled), and the steps
    // between the switching sonar's targets, 45 cm, were no steps across a
    // rise of 112 (a "rep" of 2.1 m/s in the rest, independent fresh
    // 240229). Of a named squat's or bench press's always: its first rep
    // is lowered from the stand it locks out at again, so its own ends are
    // where the bar stood, and the rise's, turns of the smoothed track, can
    // sit between a switching sonar's targets: under a bench bar on the
    // hooks, a sonar switching between 100 and 76 cm made five steps
    // against its rise's ends (76–99.75 cm) and eight against the rep's
    // (75.2–100, looked back from when it left the bottom), a "single" in
    // a rest (independent looked-at 1450013). 12,540 looked-at: invented
    // 149 → 147; 1,200 more (seeds 1400000–): no set 1 → 0; nothing lost;
    // ours unchanged; fifteen held-out sets: no set 4 → 3, invented 33 →
    // 31, nothing lost. Not of every rep: a deadlift's pull over a dirty
    // floor's no-echo zeros, measured at 0.79 of its rise, would have its
    // ramp's readings against the zeros counted as steps (fresh 240165);
    // with no lift named, asked always, a headerless touch-and-go
    // deadlift lost a rep (looked-at 60008) for a bench press's false set
    // (940025). A named squat's or bench press's first rep is refused too
    // when its bottom was reached by such a step as well as left by one
    // (`RepMeasurer.reachedByAStep`): an echo run under a carried bar
    // (independent fresh 1620090). Asked against the bottom the readings
    // stood at as well (`RepMeasurer.stoodBottomCm`), unless the lift is a
    // named deadlift, whose bottom is the floor: echoes read under the
    // plates there, and two first pulls were lost (looked-at 790075,
    // 800061). 12,000 looked-at: reports that were no set 7 → 6, invented
    // 122 → 120, nothing lost (BENCHMARKS, fifty-third pass).
    guard
      !RepMeasurer.jumpedAcross(
        measured.kept, rise: lift, answered: sent,
        lookbackReadings: RepMeasurer.firstRepLookbackReadings,
        bottomReachedByAStep: session.exercise?.isEccentricFirst == true,
        atStoodBottom: session.exercise != .deadlift),
      (rep.romCm >= RepMeasurer.minRomShareOfRise * (lift.peak.cm - lift.valley.cm)
        && session.exercise?.isEccentricFirst != true)
        || !jumpedAcrossItsOwnEnds(measured),
      // Nor with a rep shorter than its lift's minimum rise: the rise may
      // pass it while the rep fitted in it does not (`minRomShareOfRise`
      // is for reps within a set, partials the coach flags). An overhead
      // press bar eased off the hooks over a dirty floor rose 18 cm with
      // its echoes and measured 14 cm in 2.1 s, a set of one (independent
      // 400043; 610026, a bench press's 5 cm in a carry). 6,540 looked-at:
      // reports that were no set 9 → 7, invented 83 → 79, missed
      // unchanged (one pull more, one fewer); ours one rep lost (tune
      // 601–1000), ten held-out unchanged.
      rep.romCm >= minRiseCm
    else { return }
    // Nor with a rep its own report calls no bar's: the measurer's gates
    // (`RepMeasurer.minConcentricS`, `maxMeanVelocityMps`) judge the
    // concentric fitted as two parabolas (`RepMeasurer.Judged`), and the
    // report's fit (a bounce's jerk at the start, the braking at lockout)
    // can read a step between two echo levels as 26.6 cm in 0.082 s
    // while the judged one passes: a "rep" of 3.2 m/s in a bench press's
    // rest, confirmed by a 14-cm second (independent looked-at 1650005);
    // 28.4 cm in 0.134 s, a set of one (1670093). Within a set such a
    // report is a real fast rep mistimed (a speed squat's): asked there
    // too, nine more reps were lost on the 12,000 looked-at streams.
    // Looked-at 12,000: reports that were no set 13 → 11, invented 134 →
    // 131, missed 764 → 765 (a speed squat's first rep reported at
    // 4.7 m/s, 780061).
    guard measured.analysis.concentricDurationS >= RepMeasurer.minConcentricS,
      rep.meanVelocityMps <= RepMeasurer.maxMeanVelocityMps
    else { return }
    // No set starts with the clip in someone's hand.
    // Judged over the descent as well when the rise came down first: a
    // clip taken off a bar on the hooks and put back tilted 38° on the way
    // down and was level again by the time it rose (a squat's round trip
    // from a stand, a one-rep set in the rest). Not a deadlift's: its rep
    // is the pull off the floor, and a bar rolled to the shins before it
    // turns the clip with the sleeve (51–62°) while the sonar, pointed
    // off the floor, reads a top for the roll to come down from
    // (independent looked-at 20013, 40053, 70004). With no lift named,
    // not when the bar stood at the bottom before it rose
    // (`RepRules.stoodAtBottom`): the rise may be a pull from the floor,
    // and the roll's "descent" was over before the bar stood; a roll 2.5 s
    // before a headerless deadlift's first pull (roll 62°) lost the rep in
    // clean and typical streams (looked-at 380011, 620048, 810008, 920073,
    // 1230057, 1480099; 1,200 more 1530055). 13,740 looked-at: missed 897
    // → 891, nothing invented, no set unchanged; ours unchanged;
    // seventeen held-out missed 120 → 119. Not for a named squat or bench
    // press: "stood" read through a dirty sonar's strays passed a clip in
    // hand's false sets (looked-at 260081, 530078, 90090).
    let descentTilt =
      cameDown && session.exercise != .deadlift
        && !(session.exercise == nil
          && RepRules.stoodAtBottom(heights, startS: startS, noiseCm: noise.sigmaCm))
      ? measured.eccentricStartS.flatMap { start in
        start < startS ? attitude.maxAbs(in: start...startS) : nil
      } : nil
    guard RepRules.clipOnTheBar(pitchDeg: rep.maxAbsPitchDeg, rollDeg: rep.maxAbsRollDeg),
      RepRules.clipOnTheBar(pitchDeg: descentTilt?.pitch, rollDeg: descentTilt?.roll),
      RepRules.seenBeforeRise(heights, startS: startS),
      // Nor with a pause that read the bar at its top: a switching sonar's.
      !cameDown
        || !RepRules.readAtTopInPause(
          sent(from: rise.arrivedAtValleyT, to: startS), ends: ends)
    else {
      return
    }
    let fromStand = cameDownFromStand(rise, measured, cameDown: cameDown, samples: samples)
    // The top this descent began at is a counted rep's lockout, and the
    // lifter went on without a set's rest (the set was ended by command):
    // a lifter's top, whatever set it was in.
    let fromCountedTop =
      cameDown
      && lastCountedStartS.map { start in
        rise.previousPeak.map { $0.t > start } ?? false
          && startS - start < configuration.setRestS
      } ?? false
    // A set begins with a full rep: a first rep shorter than the shortest
    // full-range lift (`shortestFullRangeCm`; or the minimum the user
    // set) is a partial only a second like it proves, as one far shorter
    // than the session's sets. The minimum rises of named lifts are lower,
    // for the partials within a set the coach flags; at a set's start
    // such a rise was the bar handled: a bench bar lifted onto the hooks
    // from a carry, 12.5 cm (independent 640050). 11,340 looked-at:
    // reports that were no set 12 → 11, invented one fewer, missed one
    // more (a paused bench press's first rep measured at 12.5 cm of
    // 38.7, its set counted from the second, 9029); ours
    // held-out: no set 9 → 6, invented 17 → 14, nothing lost; tune
    // unchanged; eleven held-out: no set 6 → 3, invented 27 → 24, missed
    // unchanged. Refused outright instead, a first rep measured short
    // lost the set's reps after it until one stood at its top (tune
    // continuous-sets 387: five bench presses).
    let short =
      RepRules.shortForTheSession(romCm: rep.romCm, shortestSetRomCm: sets.shortestSetRomCm)
      || rep.romCm < configuration.minRomCm ?? Self.shortestFullRangeCm
    let finalAtTop = RepRules.finalAtTop(
      exercise: session.exercise, cameDownFromStand: fromStand,
      cameDownFromCountedTop: fromCountedTop)
    // A rise not seen driven up waits for its set's second rep where it
    // would otherwise be final at once (`RepRules.seenDriven`); other first
    // reps already wait for their round trip.
    let awaitsNextRep = short || (finalAtTop && !RepRules.seenDriven(rep))
    if measured.rampSeen, !awaitsNextRep, finalAtTop {
      // Its set's reps before it, which came down from no stand the sonar
      // read: all told now, in order.
      if let before = unstood.last, isRepBefore(before, measured, ends: ends, rise: rise) {
        for earlier in unstood {
          count(earlier.measured, ends: earlier.ends, rise: earlier.rise, into: &events)
        }
      }
      count(measured, ends: ends, rise: rise, into: &events)
    } else if RepRules.mayStartSet(
      exercise: session.exercise, cameDownFromStand: fromStand,
      stoodAtBottom: RepRules.stoodAtBottom(
        heights, startS: startS, noiseCm: noise.sigmaCm, ends: ends))
    {
      unstood = []
      sets.propose(
        measured.analysis, ends: ends, eccentricStartS: measured.eccentricStartS,
        cameDownFirst: fromStand, riseValleyT: rise.valley.t, stoodAtTop: stood,
        droveS: RepMeasurer.riseDuration(samples, rise: lift) ?? 0,
        rampSeen: measured.rampSeen, awaitsNextRep: awaitsNextRep, session: session,
        into: &events)
    } else if session.exercise?.isEccentricFirst == true, measured.rampSeen, !awaitsNextRep {
      // A named squat's or bench press's round trip, seen driven, refused
      // for its stand alone: the rep after the last such, or the first
      // (measured again when the bar went higher: the same rise).
      if unstood.last?.rise.valley.t == rise.valley.t { unstood.removeLast() }
      if let before = unstood.last, !isRepBefore(before, measured, ends: ends, rise: rise) {
        unstood = []
      }
      if unstood.count == RepRules.maxRepsBeforeFirst { unstood.removeFirst() }
      unstood.append((measured, ends, rise))
    } else {
      unstood = []
    }
  }

  /// `RepRules.repBeforeFirst` of a kept rise and a rise measured after it.
  private func isRepBefore(
    _ before: JudgedRise,
    _ measured: RepMeasurer.Measured, ends: RepRules.Ends, rise: TurnFinder.Rise
  ) -> Bool {
    RepRules.repBeforeFirst(
      before.ends, lockedOutS: before.measured.analysis.report.concentricEndS, first: ends,
      descentStartS: measured.eccentricStartS ?? rise.previousPeak?.t ?? rise.valley.t,
      firstStartS: measured.analysis.report.concentricStartS, samples: heights)
  }

  /// Whether the readings of the last `creepWindowS` still rise faster
  /// than a held top may (the still tolerance in `TurnFinder.stillS`), by
  /// three deviations of their line's slope. The turn finder compares each
  /// reading with the running top, so a grinder creeping up by less than
  /// its tolerance a reading is "held" mid-pull, and a set's deadlift was
  /// counted 12 cm under its lockout (independent fresh 400017, 380013:
  /// 57.7 cm of 71.3). Such a rise is not measured yet (asked before the
  /// measurer: asked at the count, each rep was measured again at every
  /// reading of its last 0.15 s, and `analyze` ran the 60-minute stream
  /// at 2.6 M lines/s instead of 5.3), and the turn finder tells its top
  /// again at the next hold (`TurnFinder.unsettleTop`;
  /// left to the bar leaving the top instead, the first rep event's p90
  /// rose 0.51 → 0.58 s on the looked-at streams). Anchoring the turn
  /// finder's own still test instead cost the lockouts their latency (a
  /// lockout's smoothed height creeps too: p90 0.51 → 0.65 s). Counts and
  /// latency unchanged on every split; ROM MAE: nine independent held-out
  /// sets 1.00 → 0.96 cm, looked-at 1,020 1.05 → 1.01, both fresh 1,440
  /// 1.00 → 0.97, ours tune 201–1000 0.71 / 0.72 →
  /// 0.66 / 0.67, held-out 0.87 → 0.80, sweep 0.54 → 0.48.
  private func creepingUp() -> Bool {
    guard let newest = heights.last else { return false }
    var window: [TimedHeight] = []
    for s in heights.reversed() {
      if s.t < newest.t - Self.creepWindowS { break }
      window.append(s)
    }
    guard window.count >= RepRules.minReadingsToJudgeStand else { return false }
    window.reverse()
    let line = TrackGate.prediction(window, at: newest.t)
    let slope = line.cm - TrackGate.prediction(window, at: newest.t - 1).cm
    let still = turns.stillToleranceCm / TurnFinder.stillS
    return slope > still + 3 * line.slopeSigma(max(line.sigma, noise.sigmaCm))
  }
  /// Two still windows: six readings at 20 Hz, enough for a slope whose
  /// deviation (`TrackGate.Prediction.slopeSigma`) is a few cm/s.
  static let creepWindowS = 2 * TurnFinder.stillS

  /// `RepMeasurer.jumpedAcross` asked of the rep measured rather than the
  /// rise it was measured in: its top the median of the readings within
  /// `RepMeasurer.lockoutReadS` of its lockout, its bottom the range under
  /// that (its start may be amid the switching, its lockout is stood at).
  private func jumpedAcrossItsOwnEnds(_ measured: RepMeasurer.Measured) -> Bool {
    let rep = measured.analysis.report
    let atLockout = measured.kept.filter {
      abs($0.t - rep.concentricEndS) <= RepMeasurer.lockoutReadS
    }
    guard !atLockout.isEmpty else { return false }
    let topCm = SetTracker.median(atLockout.map(\.cm))
    let rise = TurnFinder.Rise(
      valley: TimedHeight(t: measured.judged.startS, cm: topCm - rep.romCm),
      peak: TimedHeight(t: rep.concentricEndS, cm: topCm), previousPeak: nil,
      arrivedAtValleyT: measured.judged.startS)
    return RepMeasurer.jumpedAcross(
      measured.kept, rise: rise, answered: sent,
      lookbackReadings: RepMeasurer.firstRepLookbackReadings)
  }

  /// Whether a rise that is no rep of the open set may begin a new one with
  /// the next: the checks a set's first rep passes (the clip on the bar, a
  /// stand or a lift that may start without one). Two switches of a sonar
  /// under a bar on the hooks, alike and 9 s apart, started a set of three
  /// "reps" of 17–21 cm (independent looked-at 9053).
  private func mayStartSetAlone(
    _ measured: RepMeasurer.Measured, rise: TurnFinder.Rise, cameDown: Bool,
    samples: [TimedHeight]
  ) -> Bool {
    let rep = measured.analysis.report
    guard RepRules.clipOnTheBar(pitchDeg: rep.maxAbsPitchDeg, rollDeg: rep.maxAbsRollDeg),
      RepRules.seenBeforeRise(heights, startS: measured.judged.startS)
    else {
      return false
    }
    let fromStand = cameDownFromStand(rise, measured, cameDown: cameDown, samples: samples)
    return RepRules.finalAtTop(
      exercise: session.exercise, cameDownFromStand: fromStand, cameDownFromCountedTop: false)
      || RepRules.mayStartSet(
        exercise: session.exercise, cameDownFromStand: fromStand,
        stoodAtBottom: RepRules.stoodAtBottom(
          heights, startS: measured.judged.startS, noiseCm: noise.sigmaCm,
          ends: RepRules.Ends(bottomCm: rise.valley.cm, topCm: rise.peak.cm)))
  }

  /// The bar stopped at a bottom: a provisional first rep that rose from
  /// there has made its round trip. One that did not come back is withdrawn
  /// when the bar rises again from elsewhere (a pause on the way down, at
  /// the knees or the shoulders, proves nothing), unless it may still be a
  /// round trip the other way.
  private mutating func checkReturn(
    to bottom: TimedHeight, leaving: Bool, from: TimedHeight?,
    into events: inout [AnalyzerEvent]
  ) {
    guard let p = sets.provisional, bottom.t > p.analysis.report.concentricEndS else { return }
    let held = heldAtTop(p, before: bottom.t)
    if !p.awaitsNextRep, !switchedAfterLockout(p),
      p.rampSeen || from.map({ seenDescent(from: $0, to: bottom) }) == true,
      loweredOnTheBar(from: from, to: bottom),
      RepRules.cameBackDown(
        p.ends, to: bottom.cm, fromCm: from?.cm, stoodAtTop: p.stoodAtTop, heldTopS: held,
        droveS: p.droveS,
        loweredS: from.map { bottom.t - $0.t } ?? 0,
        floorRestCm: p.exercise == .deadlift ? level(around: bottom.t) : nil,
        silentS: Silence.longest(in: heights, over: min(from?.t ?? bottom.t, bottom.t)...bottom.t)
          .lengthS)
    {
      countedRiseValleyT = p.riseValleyT
      sets.confirm(into: &events)
      afterCount(topT: p.analysis.report.concentricEndS)
    } else if leaving, !(lastGapEndT.map { $0 >= bottom.t - Self.gapNearBottomS } ?? false),
      !RepRules.mayBeRoundTripWithoutReturn(exercise: p.exercise, cameDownFirst: p.cameDownFirst)
    {
      sets.withdraw(.oneWay, into: &events)
    }
  }

  /// How long a provisional rep's bar stood at its top before going down
  /// to a bottom at `t`: from its lockout until the turn finder saw the
  /// bar leave the top (0.25 s behind the bar, the smoothing's lag), or,
  /// for a rise that did not come down first (a pull's, a press's), on
  /// the readings within the turn finder's still tolerance of the top, if
  /// that is longer: from the later of its lockout and the first such
  /// reading (a grinder's lockout may be told before the bar is up) to
  /// the last before `t`. So a bar that dipped at its top and rose again
  /// (a step of a carry) had not left it. The longer of the two: a carry
  /// whose first 2 s the sonar froze under the top it then read had its
  /// first reading at the top late (blind looked-at 7000111, a 4.4-s
  /// carry whose readings' hold read 2.7 s, a set of one with that
  /// alone). A rise that came down first ended its round trip at its top
  /// (a squat single is stood with, then walked in).
  private func heldAtTop(_ p: SetTracker.Provisional, before t: Double) -> Double {
    let lockout = p.analysis.report.concentricEndS
    let untilLeft = (p.leftTopT ?? t) - lockout
    let near = p.ends.topCm - turns.stillToleranceCm
    guard !p.cameDownFirst,
      let first = heights.first(where: { $0.t > p.riseValleyT && $0.cm >= near }),
      let last = heights.last(where: { $0.t < t && $0.cm >= near })
    else { return untilLeft }
    return max(untilLeft, last.t - max(lockout, first.t))
  }

  /// The rise with the top it came down from read as the stand that top
  /// interrupted, where that top was a lone stray: over the stand the bar
  /// stood at before it (`RepRules.standLevel`), and the next reading back
  /// at the stand (within the stand's tolerance). A bench press's first
  /// descent from a stand at 109 cm, one stray reading of 121 in the
  /// stand, was "down from" 121 and no round trip back to 110 (independent
  /// looked-at 1200004, 1220022). Not a hump: a clip lifted off the hooks
  /// and put back climbs and falls over several readings (tune
  /// clip-handling 432 and 718 were sets of one when any stand under a
  /// top counted). 12,540 looked-at: missed 847 → 839 in eight streams,
  /// nothing invented; ours tune 601–1000 missed 168 → 164; thirteen
  /// held-out sets missed 95 → 94.
  private func strayTopAtItsStand(_ rise: TurnFinder.Rise) -> TurnFinder.Rise? {
    guard let top = rise.previousPeak,
      let stood = RepRules.standLevel(heights, endingAt: top.t, noiseCm: noise.sigmaCm),
      stood < top.cm
    else { return nil }
    var next: TimedHeight? = nil
    for s in heights.reversed() {
      if s.t <= top.t { break }
      next = s
    }
    guard let next,
      abs(next.cm - stood) <= RepRules.standToleranceCm(noiseCm: noise.sigmaCm)
    else { return nil }
    var fromStand = rise
    fromStand.previousPeak = TimedHeight(t: top.t, cm: stood)
    return fromStand
  }

  /// The median reading within `RepRules.minStandBeforeSetS` of `t` (of
  /// those read so far), or nil with fewer than
  /// `RepRules.minReadingsToJudgeStand`: where the bar rested around a
  /// bottom that echoes under it made.
  private func level(around t: Double) -> Double? {
    let half = RepRules.minStandBeforeSetS
    var window: [Double] = []
    for s in heights.reversed() {
      if s.t < t - half { break }
      if s.t <= t + half { window.append(s.cm) }
    }
    guard window.count >= RepRules.minReadingsToJudgeStand else { return nil }
    return SetTracker.median(window)
  }

  /// Whether the bar was seen coming down from a top to a bottom: what
  /// confirms a first rise seen at its ends only, as a sonar switching
  /// between two targets crosses neither way.
  private func seenDescent(from top: TimedHeight, to bottom: TimedHeight) -> Bool {
    RepMeasurer.seenCrossing(
      heights, from: top, to: bottom, noiseCm: noise.sigmaCm, answered: sent, strict: true)
  }

  /// Whether the clip stayed on the bar while it came down to a provisional
  /// first rep's bottom (`RepRules.clipOnTheBar`, as over that rep's drive
  /// and over a first rep's descent): no loaded bar is lowered that
  /// crooked. A clip handled at the start of a recording, in a hand that
  /// lifted it 28 cm (rolled up to 19.5°, under the bound) and lowered it
  /// rolled 30°, made a 25.7-cm "pull" confirmed by its return, a set of
  /// one (independent looked-at 1950043). 12,000 looked-at: reports that
  /// were no set 6 → 5, invented 120 → 119, nothing lost; held-out and
  /// ours unchanged (BENCHMARKS, fifty-third pass).
  private func loweredOnTheBar(from top: TimedHeight?, to bottom: TimedHeight) -> Bool {
    guard let top, bottom.t > top.t else { return true }
    let tilt = attitude.maxAbs(in: top.t...bottom.t)
    return RepRules.clipOnTheBar(pitchDeg: tilt?.pitch, rollDeg: tilt?.roll)
  }

  /// Whether the sonar read the provisional rep's bottom and then its top
  /// again sooner after its lockout than a bar can go down and back up
  /// (lowered under control, `RepRules.minControlledLoweringS`, and driven,
  /// `RepMeasurer.minConcentricS`): a sonar switching between two targets
  /// under a resting bar (the floor and a rack foot or plate, in turns of
  /// a few readings) makes rises and returns of a rep's size, and such a
  /// return proves no round trip (independent looked-at seed 9004: a
  /// 16-cm "set" in a rest).
  private func switchedAfterLockout(_ p: SetTracker.Provisional) -> Bool {
    let bottomEnd = p.ends.bottomCm + RepMeasurer.seenRampShare * p.ends.rangeCm
    let topEnd = p.ends.topCm - RepMeasurer.seenRampShare * p.ends.rangeCm
    let lockoutS = p.analysis.report.concentricEndS
    let roundTripS = RepRules.minControlledLoweringS + RepMeasurer.minConcentricS
    var atBottom = 0
    for s in heights where s.t > lockoutS && s.t <= lockoutS + roundTripS {
      if s.cm <= bottomEnd {
        atBottom += 1
      } else if s.cm >= topEnd, atBottom >= RepRules.minReturnReadingsAtBottom {
        return true
      }
    }
    return false
  }

  /// Whether the rise came down first from a stand
  /// (`RepRules.cameDownFromStand`), its descent judged on the measurer's
  /// readings (`firstDescent`).
  private func cameDownFromStand(
    _ rise: TurnFinder.Rise, _ measured: RepMeasurer.Measured, cameDown: Bool,
    samples: [TimedHeight]
  ) -> Bool {
    RepRules.cameDownFromStand(
      rise, cameDownFirst: cameDown,
      descent: cameDown
        ? firstDescent(
          rise, samples: samples, kept: measured.kept,
          concentricStartS: measured.judged.startS)
        : nil,
      stoodBeforeDescent: measured.eccentricStartS.map {
        RepRules.stood(
          samples, before: $0, atCm: rise.peak.cm, rangeCm: rise.peak.cm - rise.valley.cm,
          noiseCm: noise.sigmaCm)
      } ?? false)
  }

  /// How the descent into a rise was seen (`RepRules.Descent`), or nil
  /// where it cannot be judged: it is timed on the sonar's own readings
  /// (`kept`: the measurer's, a stuck run's repeats out, as a stuck run
  /// ending in a jump is no drop), and not judged across a silence of the
  /// sonar from its middle on, unless the bar was read down and standing
  /// before the sonar fell silent (`RepRules.downBefore`: otherwise it may
  /// have gone lower, and for longer, while the sonar was silent), nor
  /// where a stuck run hid its middle.
  private func firstDescent(
    _ rise: TurnFinder.Rise, samples: [TimedHeight], kept: [TimedHeight], concentricStartS: Double
  ) -> RepRules.Descent? {
    guard let top = rise.previousPeak,
      let span = RepMeasurer.transit(kept, from: top, to: rise.valley, atCrossings: true),
      !silences.contains(where: { gap in
        gap.upperBound > span.lowerBound && gap.lowerBound < concentricStartS
          && !RepRules.downBefore(
            gap.lowerBound, kept, from: top.cm, to: rise.valley.cm, noiseCm: noise.sigmaCm)
      })
    else { return nil }
    let inside = { (s: TimedHeight) in s.t > span.lowerBound && s.t < span.upperBound }
    let seen = kept.lazy.filter(inside).count
    if seen >= RepRules.minDescentReadingsSeen { return .timed(RepMeasurer.scaled(span)) }
    return samples.lazy.filter(inside).count > seen ? nil : .unseen
  }

  /// The turn finder's rise on the revised clock.
  private static func retimed(_ rise: TurnFinder.Rise, by hindsight: ClockHindsight)
    -> TurnFinder.Rise
  {
    func at(_ h: TimedHeight) -> TimedHeight { TimedHeight(t: hindsight.time(h.t), cm: h.cm) }
    var revised = rise
    revised.valley = at(rise.valley)
    revised.peak = at(rise.peak)
    revised.previousPeak = rise.previousPeak.map(at)
    revised.arrivedAtValleyT = hindsight.time(rise.arrivedAtValleyT)
    return revised
  }

  /// `sent` on the revised clock: revised times between two revised times.
  private func sent(from: Double, to: Double, by hindsight: ClockHindsight) -> [TimedHeight] {
    var found: [TimedHeight] = []
    for s in answered {
      let t = hindsight.time(s.t)
      if t > from, t < to { found.append(TimedHeight(t: t, cm: s.cm)) }
    }
    return found
  }

  /// The readings in range sent strictly between two times (`answered`).
  private func sent(from: Double, to: Double) -> [TimedHeight] {
    var found: [TimedHeight] = []
    for s in answered.reversed() {
      if s.t <= from { break }
      if s.t < to { found.append(s) }
    }
    return found.reversed()
  }

  /// A provisional rep is decided with what is known at the end of a set,
  /// or when the bar went on to another top with no rep measured: a round
  /// trip down from a stand and back (`RepRules.mayBeRoundTripWithoutReturn`)
  /// stands, anything else is withdrawn as a one-way move.
  private mutating func resolveProvisional(into events: inout [AnalyzerEvent]) {
    guard let p = sets.provisional else { return }
    if p.rampSeen, !p.awaitsNextRep,
      RepRules.mayBeRoundTripWithoutReturn(exercise: p.exercise, cameDownFirst: p.cameDownFirst)
    {
      countedRiseValleyT = p.riseValleyT
      lastCountedStartS = p.analysis.report.concentricStartS
      sets.confirm(into: &events)
    } else {
      sets.withdraw(.oneWay, into: &events)
    }
  }

  private mutating func count(
    _ measured: RepMeasurer.Measured, ends: RepRules.Ends, rise: TurnFinder.Rise,
    into events: inout [AnalyzerEvent]
  ) {
    countedRiseValleyT = rise.valley.t
    unstood = []
    sets.add(
      measured.analysis, ends: ends, eccentricStartS: measured.eccentricStartS, session: session,
      into: &events)
    afterCount(topT: rise.peak.t)
  }

  /// The smallest rise that may be a rep, in one place: the exercise's (of
  /// the open set, else the next one), raised within a set to a share of
  /// its deepest rep. A provisional first rep is the set's too, where its
  /// lift could have travelled it (`RepRules.maxRomCm`): a re-grip's
  /// 17-cm dip under a 71-cm clean to the shoulders confirmed it as a set
  /// of two (independent looked-at 40042), and a clip handled on the
  /// hooks, read as a 140-cm press, held off the first real one (tune
  /// clip-handling 256). Looked-at 1,020: reports that were no set 2 → 1,
  /// invented 28 → 26, missed 74 → 73 (a deadlift's first pull, 70039);
  /// held out 50000–: missed 3 → 2, the other two held-out sets, tune
  /// 201–1000, our held-out seeds, the sweep and the samples unchanged.
  private var minRiseCm: Double {
    let exercise = sets.open.map { $0.exercise } ?? session.exercise
    let base = configuration.minRomCm ?? Self.defaultMinRiseCm(exercise)
    let provisionalRom =
      sets.provisional.map { p in
        let rom = p.analysis.report.romCm
        return rom <= RepRules.maxRomCm(p.exercise ?? exercise) ? rom : 0
      } ?? 0
    return max(base, Self.minRiseShareOfSet * max(sets.maxRomInSetCm, provisionalRom))
  }

  private mutating func afterCount(topT: Double) {
    lastCountedStartS = sets.open?.reps.last?.report.concentricStartS
    // The next rep's descent starts at this top: older samples can go.
    let keepFrom = topT - 2 * configuration.smoothingWindowS - 1
    while let first = heights.first, first.t < keepFrom { heights.removeFirst() }
    attitude.trim(before: keepFrom)
  }

  private mutating func checkRest(now: Double, into events: inout [AnalyzerEvent]) {
    if sets.restIsOver(now: now, lastSwingT: lastSwingT, restS: configuration.setRestS) {
      endSet(into: &events)
    }
  }

  private mutating func count(_ field: WritableKeyPath<QualityCounts, Int>) {
    totals[keyPath: field] += 1
    pending[keyPath: field] += 1
  }

  private mutating func swapOutTurns() -> [TurnFinder.Turn] {
    var out: [TurnFinder.Turn] = []
    swap(&out, &turnScratch)
    out.removeAll(keepingCapacity: true)
    return out
  }

  private func swapOut(_ buffer: inout [TimedHeight]) -> [TimedHeight] {
    var out: [TimedHeight] = []
    swap(&out, &buffer)
    out.removeAll(keepingCapacity: true)
    return out
  }
}
