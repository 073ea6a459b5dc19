/// What the sonar saw of a rise, apart from measuring it: whether its ramp
/// was seen moving or only at its ends, whether a switching sonar jumped
/// across it, the straight path across a silence it was never heard in,
/// and the transit times the set's rules time a descent by. The analyzer's
/// rules ask these of rises they may never measure, so they are static.
extension RepMeasurer {
  /// A ramp is seen when a reading lies strictly inside its middle: between
  /// this share of the way and one minus it (the 20–80 % of `transit`).
  static let seenRampShare = 0.2
  /// Nor within this many of the sonar's noise deviations of either end:
  /// over a mat (σ 2–3 cm, heavy-tailed: the deviation is read from the
  /// median residual) a bar at rest reads 5–12 cm off its level now and
  /// then. Independent simulator, looked-at seeds 9000–9059, invented
  /// reps: 1 σ 236, 3 σ 97, 5 σ 45 (with `seenMaxMarginShare`, whose
  /// floor is what it costs on our soft-floor scenarios).
  static let seenNoiseSigmas = 5.0
  /// A middle widened by the noise can be stepped over: a 0.5-m/s bench
  /// press read at 15 Hz over a dirty floor (σ 3 cm) crosses its middle
  /// tenth in 0.07 s. This many readings in a row, each 20–80 % of the
  /// way, two of them astride the halfway point in the move's order, say
  /// the same: a ramp's readings, where a sonar switching between two
  /// targets would need as many wide misses in a row, each clear of the
  /// ends by twice its noise too (at only 20–80 %, a sonar switching 18
  /// cm at σ 3.5 made seven such "ramps" in one dirty bench session's
  /// rests). Independent looked-at 20000–20119: reps missed 27 → 20
  /// (dirty 77 → 79 % exact), none invented; looked-at 9000–9059
  /// unchanged; tune 201–600 missed 244 → 242.
  static let straddleReadings = 3
  static let straddleNoiseSigmas = 2.0
  /// But never so far in that no middle is left: a tenth of the ramp
  /// stays, so a short rep over a mat (22 cm at σ 2.5) can still be seen.
  /// Invented reps on the independent looked-at / held-out seeds against
  /// reps lost on the tune split's soft floor (of 5 499): a fifth left
  /// 55 / 93 and 0; a tenth 45 / 78 and 4; none 31 / 64 and 10.
  static let seenMaxMarginShare = 0.45
  /// The descent into a rise's bottom belongs to the same round trip when
  /// it came down at least this share of the rise and the bar left the
  /// bottom within `maxConcentricS` of arriving (not a first pull after a
  /// rest, whose descent is long past).
  static let roundTripDescentShare = 0.5
  /// A rise with no such descent (a first pull, a press from the
  /// shoulders) whose ramp went unseen counts only when the sonar was
  /// silent at least this long across it (last reading at the bottom to
  /// first at the top): a dropout that could hide a bar's move. A sonar
  /// stepping from an obstacle to the floor under a resting bar answers
  /// within a few periods. Independent simulator, looked-at seeds: such
  /// steps were 0.08–0.27 s (19 invented reps), the true first rises
  /// passed this way 0.9 s or had no reading at the bottom at all.
  static let unseenRiseDropoutS = 0.3
  /// A sonar switching under a resting bar comes back to the bottom after
  /// reading the top this many times in a row (`seenMoving`); after one, a
  /// stray at the top and an echo off the floor during a pull (tune
  /// warm-up 522: 77 cm 0.06 s into a deadlift, then 24 cm).
  static let switchingTopReadings = 2
  /// And a sonar that did so in the second before the dropout was
  /// switching all along: what it reads across the dropout is the other
  /// target (an overhead-press bar on the hooks over a rack foot and the
  /// floor: the gate kept the foot, then the floor, a 62-cm "rep",
  /// independent looked-at 60107). The six independent looked-at sets
  /// (660 streams): reports that were no set 23 → 18, invented reps
  /// 50 → 43, no rep lost; tune 201–600 unchanged. Over 2 s, one rep of
  /// 40000–40119 lost.
  static let switchingLookbackS = 1.0
  /// Single readings at the top count too, when the sonar came back to
  /// the bottom after this many of them within that second (60107 again,
  /// 14 s later: 132, 130, 129, 128 each alone between the foot's
  /// readings). Looked-at 40000–70119: reports that were no set 13 → 12,
  /// invented reps 32 → 30 (one a squat set's third "rep", 1.3 s after
  /// the missed one); tune 201–600 unchanged.
  static let switchingReturns = 2
  /// A crossing shown by fewer kept readings in the middle than this is
  /// asked of the readings the sonar sent too (`seenMoving`): the gate's
  /// rejections can make a switch look like a ramp. A sonar switching
  /// between a rack foot (77 cm) and a bench bar on the hooks (101 cm)
  /// sent 77, 102, 88, 101; the gate kept 77, 88, 101, and the one stray
  /// between passed for a 28-cm rep (independent looked-at 40037). A bar's
  /// ramp leaves several middle readings, and the echo runs a sonar sends
  /// during it (15 cm five times in a deadlift's pull, 30019) do not undo
  /// them. Independent looked-at 20000–20119 / 40000–40119: reports that
  /// were no set 6 / 10 → 4 / 6, invented reps 9 / 20 → 7 / 15, missed
  /// 20 / 14 → 22 / 15; 9000–9059 and 30000–30119 unchanged; tune 201–600
  /// missed 243 → 244.
  static let rampReadingsSeen = 3
  /// The readings sent are taken from below the move's bottom only as far
  /// as its end reaches (`seenRampShare` of the range, or this many noise
  /// deviations), not the noise-widened margin: a sonar switching between
  /// two targets reads its lower one at the rise's bottom (the gate
  /// followed it there), while an echo under a rising bar reads anywhere
  /// below it. A dirty floor's 5 σ margin (17 cm at σ 3.4) took in one
  /// echo 11 cm under a touch-and-go bench press's bottom, sent between
  /// 91 and 101 on the way up: the ramp read as back at the bottom and up
  /// again in one step, and the rep was lost (independent looked-at
  /// 560092). 12,000 looked-at: missed 765 → 756, nothing invented, no
  /// set unchanged (eight streams changed, all for the better); ours
  /// unchanged. At 3 σ two reps fewer found.
  static let sentBelowNoiseSigmas = 2.0

  /// The middle's margin from either end of a move from `low` to `high`.
  static func crossingMargin(_ low: Double, _ high: Double, noiseCm: Double) -> Double {
    min(
      max(seenRampShare * (high - low), seenNoiseSigmas * noiseCm),
      seenMaxMarginShare * (high - low))
  }

  /// Whether the readings between `a` and `b` show a bar moving from one
  /// to the other, not a sonar switching between two targets.
  static func crossed<Readings: BidirectionalCollection<TimedHeight>>(
    _ samples: Readings, from a: TimedHeight, to b: TimedHeight, noiseCm: Double
  ) -> Bool {
    let low = min(a.cm, b.cm)
    let high = max(a.cm, b.cm)
    let margin = crossingMargin(low, high, noiseCm: noiseCm)
    // The middle must be crossed: a reading inside it whose nearest
    // readings at either end, before and after it, are not at the same
    // end. A stray reading amid a switching sonar's run at one end
    // (top, middle, top) is not; a bar's ramp, however noisy, leaves
    // one between a reading at each end. Invented reps, independent
    // looked-at / held-out seeds: 24 → 8, 53 → 27; no rep lost on
    // tune 201–600, 2 of 28 097 on held-out 5040–5399.
    // From the newest back: the rise is measured at its top, at the end
    // of the buffer, and the buffer can hold minutes before it. Only a
    // crossing from `a`'s end to `b`'s is the move: across a rise's
    // dropout a switching sonar sent 128, 96, 68 (independent looked-at
    // 40000–40119: one report that was no set fewer, nothing lost).
    let endCm = seenRampShare * (high - low)
    // Whether the nearest end reading after the ones in hand is the top.
    var laterAtTop = b.cm > a.cm
    var sawMiddle = false
    let halfway = 0.5 * (low + high)
    let clearCm = max(endCm, Self.straddleNoiseSigmas * noiseCm)
    // Readings in a row clear of both ends (`straddleReadings`): how
    // many, whether the newest lay past the halfway point toward the
    // later end, and whether two of them lay astride it in the move's order.
    var between = 0
    var laterPastHalfway = false
    var astride = false
    for s in samples.reversed() {
      if s.t <= a.t { break }
      guard s.t < b.t else { continue }
      if s.cm > low + margin, s.cm < high - margin {
        sawMiddle = true
        between = 0
        continue
      }
      // An end is its outer `seenRampShare`: a noisy ramp's readings
      // just outside a narrow middle are neither end.
      let atTop = s.cm >= high - endCm
      guard atTop || s.cm <= low + endCm else {
        guard s.cm > low + clearCm, s.cm < high - clearCm else {
          between = 0
          continue
        }
        let pastHalfway = (s.cm > halfway) == laterAtTop
        if between == 0 { astride = false }
        if between > 0, laterPastHalfway, !pastHalfway { astride = true }
        between += 1
        laterPastHalfway = pastHalfway
        if astride, between >= Self.straddleReadings { sawMiddle = true }
        continue
      }
      between = 0
      if sawMiddle, atTop != laterAtTop, laterAtTop == (b.cm > a.cm) { return true }
      laterAtTop = atTop
      sawMiddle = false
    }
    return sawMiddle && laterAtTop != (a.cm > b.cm)
  }

  /// The readings in range the sonar sent between two times, kept or not
  /// (`seenMoving`).
  typealias Answered = (_ from: Double, _ to: Double) -> [TimedHeight]

  /// Whether the bar was seen crossing the middle from `a` to `b`
  /// (`crossed`), by the readings kept and, where fewer than
  /// `rampReadingsSeen` of them lie in the middle, by those sent too.
  /// `strict` asks for the kept readings alone: a descent that must prove
  /// a first rise seen at its ends only (`Measured.rampSeen`). A lowering
  /// is slower than a pull and leaves that many; one stray reading just
  /// inside the middle of a sonar switching 39 cm under a bar on the
  /// hooks confirmed a one-rep "set" of presses in a rest (independent
  /// looked-at 70019).
  static func seenCrossing<Readings: BidirectionalCollection<TimedHeight>>(
    _ samples: Readings, from a: TimedHeight, to b: TimedHeight, noiseCm: Double,
    answered: Answered, strict: Bool = false
  ) -> Bool {
    guard crossed(samples, from: a, to: b, noiseCm: noiseCm) else { return false }
    let low = min(a.cm, b.cm)
    let high = max(a.cm, b.cm)
    let margin = crossingMargin(low, high, noiseCm: noiseCm)
    let middle = samples.lazy.filter {
      $0.t > a.t && $0.t < b.t && $0.cm > low + margin && $0.cm < high - margin
    }
    if middle.count >= Self.rampReadingsSeen { return true }
    if strict { return false }
    // Below the bottom, only within the bottom's own end (`sentBelowNoiseSigmas`).
    let belowCm = max(seenRampShare * (high - low), sentBelowNoiseSigmas * noiseCm)
    let sent = loneEchoesRemoved(
      answered(a.t, b.t).filter { $0.cm >= low - belowCm && $0.cm <= high + margin },
      noiseCm: noiseCm)
    return sent.isEmpty || crossed(sent, from: a, to: b, noiseCm: noiseCm)
  }

  /// `readings` without the lone ones under both neighbours that no bar
  /// could have visited between them: one echo off a leg, the bench or a
  /// plate among the bar's readings. A path bent by at most
  /// `TrackGate.maxAccelerationCmPerS2` lies within ½·a·(t − t₀)·(t₁ − t)
  /// of the chord between its neighbours; a reading further under it than
  /// that (beyond `TrackGate.marginCm` and `TrackGate.sigmas` of the
  /// noise) is not the bar, where the neighbours themselves lie within a
  /// bar's speed (`TrackGate.maxSpeedCmPerS`) of each other. Only under:
  /// an echo is nearer than the floor, while a reading above a stray is a
  /// switching sonar's other target (`aCrossingKeptFromOneStrayIsAskedOfWhatWasSent`).
  /// Left in, such an echo sent at the bottom's level mid-descent (99, 78,
  /// 96 cm in 0.12 s, a touch-and-go bench press over a dirty floor) read
  /// as the bar back at the bottom, and the rep was lost (independent
  /// looked-at 1440004); and one sent between a switching sonar's two
  /// targets (94, 67, 81) read as the bar back at the bottom and up a
  /// ramp, where without it the readings jump from one target to the other
  /// (a set of one in a rest, 1990025). 12,000 looked-at: invented 131 →
  /// 128, missed 756 → 755, reports that were no set 11 → 10; ours
  /// unchanged; without the neighbours' speed bound, a false set in ours
  /// (tune floor-to-rack 809: garbage from 5.6 to 150 cm read as a ramp).
  static func loneEchoesRemoved(_ readings: [TimedHeight], noiseCm: Double) -> [TimedHeight] {
    guard readings.count >= 3 else { return readings }
    let slack = TrackGate.marginCm + TrackGate.sigmas * noiseCm
    var kept = [readings[0]]
    kept.reserveCapacity(readings.count)
    for i in 1..<(readings.count - 1) {
      let before = readings[i - 1]
      let r = readings[i]
      let after = readings[i + 1]
      if before.t < r.t, r.t < after.t, r.cm < before.cm, r.cm < after.cm,
        abs(after.cm - before.cm) <= slack + TrackGate.maxSpeedCmPerS * (after.t - before.t)
      {
        let chord = before.cm + (after.cm - before.cm) * (r.t - before.t) / (after.t - before.t)
        let bend = 0.5 * TrackGate.maxAccelerationCmPerS2 * (r.t - before.t) * (after.t - r.t)
        if chord - r.cm - slack > bend { continue }
      }
      kept.append(r)
    }
    kept.append(readings[readings.count - 1])
    return kept
  }

  /// Whether the bar was seen moving in a round trip: no crossing of the
  /// middle of the rise's ramp nor of the descent just before it (a
  /// reading there between one at either end) is a sonar switching
  /// between two targets, not a bar. A bar resting on a bench's
  /// hooks over a rack foot read the floor (106 cm) and the foot (89 cm)
  /// in turns of 2–8 readings for minutes, every switch within one period:
  /// 17 cm "reps" by the dozen (independent simulator, seed 9000 on: 513
  /// of 521 invented reps were in rests). A bar's move takes 0.15 s or
  /// more and leaves readings on one ramp or the other; a rep whose ramp
  /// alone went unseen (an echo burst or a stuck run and a dropout across
  /// a press: 0.8 % of tune reps) still counts, as does a first rise out
  /// of a rest across a dropout (`unseenRiseDropoutS`).
  ///
  /// A dropout is judged on what the sonar sent across it (`answered`),
  /// not only on what the gate kept: a sonar switching between the floor
  /// and a rack foot under a resting squat bar answered at both ends every
  /// 0.1 s while the gate kept none of it for 0.36 s, and the switch passed
  /// for a first rise (independent looked-at 20040, 20027). Rejected
  /// readings that cross the rise's middle are a fast bar's own ramp (a
  /// stuck sonar's first pull: tune deadlift-platform), and it stands.
  /// Independent looked-at 20000–20119: reports that were no set 9 → 6,
  /// invented reps 12 → 9, exact sets 92.5 → 93.3 %; looked-at 9000–9059
  /// unchanged; tune 201–600 missed 242 → 243 (a first pull in 591's
  /// sensor faults).
  static func seenMoving(
    _ samples: [TimedHeight], rise: TurnFinder.Rise, noiseCm: Double,
    answered: Answered = { _, _ in [] }, strictDescent: Bool = false
  ) -> Bool {
    func seen(from a: TimedHeight, to b: TimedHeight) -> Bool {
      seenCrossing(samples, from: a, to: b, noiseCm: noiseCm, answered: answered)
    }
    /// The time between two kept readings, the last at the rise's bottom
    /// and the first at its top, that the bar could have risen unseen. A
    /// sonar switching between two targets under a resting bar answers
    /// at both ends all the while, back at the bottom after the top
    /// (`switchingTopReadings`), or did so just before it
    /// (`switchingLookbackS`): then only from the last reading sent at
    /// the bottom to the first at the top after it. A sonar that saw the
    /// top and never the bottom again, or whose readings crossed the
    /// middle (the bar's own ramp, rejected as too fast), says nothing
    /// against the whole span.
    func quietAcrossS(from: Double, to: Double, margin: Double) -> Double {
      // Not readings beyond either end: strays, no sign of either target.
      let sent = answered(from - Self.switchingLookbackS, to).filter {
        $0.cm >= rise.valley.cm - margin && $0.cm <= rise.peak.cm + margin
      }
      let atBottom = { (s: TimedHeight) in abs(s.cm - rise.valley.cm) <= margin }
      let atTop = { (s: TimedHeight) in abs(s.cm - rise.peak.cm) <= margin }
      var returns = 0
      var singles = 0
      var topRun = 0
      for s in sent {
        if atTop(s) {
          topRun += 1
        } else if atBottom(s) {
          if topRun >= Self.switchingTopReadings { returns += 1 }
          if topRun > 0 { singles += 1 }
          topRun = 0
        }
      }
      if singles >= Self.switchingReturns { returns += 1 }
      let across = sent.drop { $0.t <= from }
      guard returns > 0,
        !crossed(
          across, from: TimedHeight(t: from, cm: rise.valley.cm),
          to: TimedHeight(t: to, cm: rise.peak.cm), noiseCm: noiseCm)
      else { return to - from }
      let left = across.last(where: atBottom)?.t ?? from
      return (across.first { $0.t > left && atTop($0) }?.t ?? to) - left
    }
    /// From the last reading at the rise's bottom to the first at its top
    /// after it, as quiet as `quietAcrossS` finds it; nil when there is no
    /// such pair.
    func silentAcrossS() -> Double? {
      let margin = crossingMargin(rise.valley.cm, rise.peak.cm, noiseCm: noiseCm)
      var firstTopT: Double? = nil
      for s in samples.reversed() {
        if s.t < rise.valley.t { break }
        // A smoothed top's time is its window's mean: the top's first
        // reading may come after it (by the running sum's rounding, or part
        // of a window), and is still the top's. Skipped, it left no pair,
        // and a 0.22-s switch passed for a silence without end (independent
        // looked-at 60107, 70019: overhead-press "sets" of one in a rest).
        // Looked-at seeds (six sets): reports that were no set 10 → 8,
        // invented reps 26 → 24; our held-out seeds 5040–5399: 15 → 14,
        // 30 → 29; old independent held-out: 2 → 1, 6 → 5 (and one rep
        // fewer missed); tune seeds 201–600 unchanged.
        if s.t > rise.peak.t, s.cm < rise.peak.cm - margin { continue }
        if s.cm >= rise.peak.cm - margin {
          firstTopT = s.t
        } else if s.cm <= rise.valley.cm + margin, let top = firstTopT {
          return quietAcrossS(from: s.t, to: top, margin: margin)
        }
      }
      return nil
    }
    if seen(from: rise.valley, to: rise.peak) { return true }
    guard let top = roundTripTop(rise) else {
      return (silentAcrossS() ?? .infinity) >= unseenRiseDropoutS
    }
    // And the rise's own middle, when the descent began above the rise's
    // top: a bar lowered from a lockout onto hooks over a switching sonar
    // crossed its own way down, not the 28 cm the sonar then switched
    // across (independent looked-at 20099: an overhead press reracked).
    // Where the descent is to prove the rise a set's first round trip
    // (`strictDescent`), it is seen by the readings kept alone
    // (`seenCrossing`'s `strict`): one reading the sonar sent between
    // no-echoes, in the middle of a switch down under an overhead press
    // bar on the hooks, made the next switch up a 34-cm "press" that came
    // back down (independent 580055); a carry's leg echoes likewise made
    // a pick-up's next step a second "rep" (fresh 390054). 6,540
    // looked-at independent streams: reports that were no set 17 → 15,
    // invented reps 98 → 94, none lost; ours unchanged.
    return seenCrossing(
      samples, from: top, to: rise.valley, noiseCm: noiseCm, answered: answered,
      strict: strictDescent)
      && (top.cm <= rise.peak.cm
        || seen(from: TimedHeight(t: top.t, cm: rise.peak.cm), to: rise.valley))
  }

  /// The top the descent into the rise's bottom began at, when that
  /// descent belongs to the same round trip (`roundTripDescentShare`); nil
  /// for a first rise.
  static func roundTripTop(_ rise: TurnFinder.Rise) -> TimedHeight? {
    guard let top = rise.previousPeak,
      rise.peak.t - rise.arrivedAtValleyT <= maxConcentricS,
      top.cm - rise.valley.cm >= roundTripDescentShare * (rise.peak.cm - rise.valley.cm)
    else { return nil }
    return top
  }

  /// Whether the readings went from the rise's bottom to its top in one
  /// step no bar could take, with a sonar switching between the two around
  /// it. A sonar under a carried bar read the floor and the legs in turns
  /// (90 and 37 cm, every 0.05 s), and its steps down passed for the
  /// descent of a round trip: a bench press's first rep in the walk from
  /// the floor to the bench (independent looked-at 20046). The step: the
  /// last reading in the bottom fifth (`seenRampShare`) and the next, in
  /// the top fifth, further apart than a bar crosses its range in the time
  /// between them (`maxCrossingCmPerS`), with no reading in
  /// the middle since the rise's valley, and timed from the first of any
  /// readings equal to the bottom one (a stuck sonar's run hides a ramp).
  /// One such step is an echo read under a pulled bar, or a bar read late
  /// by a batched link; a sonar switching makes them both ways, at least
  /// `switchingReturns` more in the `switchingLookbackS` before: steps
  /// from the top's `switchingTopShare` to anywhere in the rise's range at
  /// least its middle three fifths away, or back (a carrier's legs are
  /// read at any height; strays beyond either end are no target's).
  /// A bar's ramp that the readings missed leaves a gap as long as the
  /// ramp took: a dropout, echoes the gate rejected. Only a set's first
  /// rep is refused for that single step (the analyzer): judged in every
  /// rise, any such step cost real reps off echoes mid-pull (tune seeds
  /// 201–600: missed 154 → 203); steps counted between any readings,
  /// strays and spikes included, still cost 3 (tune 601–1000). The
  /// `switchingSteps` below refuse an eccentric-first set's later reps
  /// too (a squat walked in after its set, the analyzer).
  /// Independent looked-at seeds (six sets, 660 streams): reports that
  /// were no set 8 → 7, invented reps 24 → 21, none lost; 100000–:
  /// invented 14 → 13; tune seeds 201–1000, our held-out seeds 5040–5399,
  /// 90000– and the old independent held-out unchanged. The fresh
  /// independent held-out set: exact sets 93.7 → 94.3 %, reports that were
  /// no set 5 → 4, invented reps 9 → 7.
  ///
  /// Nor, whatever step the kept readings show, when the sonar sent
  /// `switchingSteps` such steps or more from the second before the bar
  /// left the bottom to the top: the gate followed one target, then the
  /// other through a stray between them, and the switch read as a ramp (a
  /// squat bar on the hooks over a sonar switching between the floor and
  /// something 45 cm nearer, a "single" in a rest: independent looked-at
  /// 30062).
  ///
  /// Steps were first counted between the two ends' fifths only; counted
  /// from the top to anywhere in range, a carry whose legs read 44–65 cm
  /// under a bar at 88 passed no more for a bench press's first rep
  /// (independent 100182): 100000– reports that were no set 2 → 0,
  /// invented 12 → 9; looked-at (six sets) invented 19 → 18; tune seeds
  /// 201–1000, our held-out seeds, 90000– and the old independent
  /// held-out unchanged; the fresh independent held-out set: exact
  /// 94.6 → 94.9 %, no-set 3 → 2, invented 6 → 5.
  ///
  /// Asked too against the top the kept readings stood at (`stoodTopCm`)
  /// when the rise's peak is higher: a stray the gate kept lifts the
  /// smoothed peak, and the switches beneath it are then no steps across
  /// the range. With `atStoodBottom`, asked as well against the bottom
  /// they stood at (`stoodBottomCm`) when the rise's valley is higher by
  /// no more than the bottom's band (`seenRampShare` of the range): a
  /// sonar switching between a bench bar on the hooks (96 cm) and an echo
  /// run (65–71) mixed into a smoothed valley of 74.7, and the switches
  /// down to the echoes fell under the range it spanned, five steps where
  /// six refuse: a 30-cm "rep" of 1.07 m/s in a rest, a set of one
  /// (independent looked-at 1990025). Lower than the band, the readings
  /// near the valley are something else's (a floor under a bar picked up
  /// long before the rise peaked, 1620047).
  static func jumpedAcross(
    _ samples: [TimedHeight], rise: TurnFinder.Rise, answered: Answered,
    lookbackReadings: Int = switchingLookbackReadings, bottomReachedByAStep: Bool = false,
    atStoodBottom: Bool = false
  ) -> Bool {
    var stood = rise
    if let top = stoodTopCm(samples, rise: rise), top < rise.peak.cm {
      stood.peak.cm = top
      if jumpedAcross(
        samples, between: stood, answered: answered, lookbackReadings: lookbackReadings,
        bottomReachedByAStep: bottomReachedByAStep)
      {
        return true
      }
    }
    if atStoodBottom, let bottom = stoodBottomCm(samples, rise: rise), bottom < rise.valley.cm,
      rise.valley.cm - bottom <= seenRampShare * (stood.peak.cm - rise.valley.cm)
    {
      var low = stood
      low.valley.cm = bottom
      if jumpedAcross(
        samples, between: low, answered: answered, lookbackReadings: lookbackReadings,
        bottomReachedByAStep: bottomReachedByAStep)
      {
        return true
      }
    }
    return jumpedAcross(
      samples, between: rise, answered: answered, lookbackReadings: lookbackReadings,
      bottomReachedByAStep: bottomReachedByAStep)
  }

  /// The second lowest of the kept readings within `stoodTopWindowS` of the
  /// rise's valley: `stoodTopCm`'s twin at the other end, where the bar
  /// stood before it rose, one low stray aside.
  static func stoodBottomCm(_ samples: [TimedHeight], rise: TurnFinder.Rise) -> Double? {
    secondMost(
      samples, in: (rise.valley.t - stoodTopWindowS)...(rise.valley.t + stoodTopWindowS), by: <)
  }

  /// The second highest of the kept readings from the rise's valley to
  /// `stoodTopWindowS` past its peak: a top the bar stood at is read more
  /// than once, and one reading above all the others is a stray the gate
  /// kept, not where the bar stood: an overhead press bar on the
  /// hooks over a sonar switching between 106 and 137 cm, and one
  /// reading of 169 kept among them; the smoothed track peaked at 154,
  /// and the 31-cm switches under it were no steps across its 50-cm
  /// "rise", a set of one in a rest (independent looked-at 510059; a
  /// squat's unrack before its set, 1940016). Looked-at 12,000: reports
  /// that were no set 8 → 7, invented 124 → 122, nothing lost; ours
  /// unchanged; twenty-six held-out sets: no set 3 → 2, invented 34 → 33,
  /// nothing lost (BENCHMARKS, fifty-second pass). Asked in place of the
  /// peak rather than beside it, a bench press's stray rep passed instead
  /// (1670093).
  static func stoodTopCm(_ samples: [TimedHeight], rise: TurnFinder.Rise) -> Double? {
    secondMost(
      samples, in: rise.valley.t...max(rise.valley.t, rise.peak.t + stoodTopWindowS), by: >)
  }

  /// The second reading in `window` in the order `beyond` ranks them (an
  /// equal pair counts as two): a level read more than once, not a lone
  /// stray.
  private static func secondMost(
    _ samples: [TimedHeight], in window: ClosedRange<Double>,
    by beyond: (Double, Double) -> Bool
  ) -> Double? {
    var first: Double?
    var second: Double?
    for s in samples where window.contains(s.t) {
      if first.map({ beyond(s.cm, $0) }) ?? true {
        second = first
        first = s.cm
      } else if second.map({ beyond(s.cm, $0) }) ?? true {
        second = s.cm
      }
    }
    return second
  }
  /// The lockout and a moment after it: a rep's top is read several times
  /// within it at 15–40 Hz, however fast the bar turns.
  static let stoodTopWindowS = 0.5

  private static func jumpedAcross(
    _ samples: [TimedHeight], between rise: TurnFinder.Rise, answered: Answered,
    lookbackReadings: Int, bottomReachedByAStep: Bool
  ) -> Bool {
    let range = rise.peak.cm - rise.valley.cm
    guard range > 0 else { return false }
    let endCm = seenRampShare * range
    let atBottom = { (s: TimedHeight) in
      s.cm >= rise.valley.cm - endCm && s.cm <= rise.valley.cm + endCm
    }
    let atTop = { (s: TimedHeight) in s.cm >= rise.peak.cm - endCm && s.cm <= rise.peak.cm + endCm }
    let nearTop = { (s: TimedHeight) in
      s.cm >= rise.peak.cm - switchingTopShare * range && s.cm <= rise.peak.cm + endCm
    }
    let tooFast = steppedFasterThanABar
    let inRange = { (s: TimedHeight) in
      s.cm >= rise.valley.cm - endCm && s.cm <= rise.peak.cm + endCm
    }
    /// Steps no bar takes in the readings sent, to or from the top.
    func steps(from: Double, to: Double) -> Int {
      var count = 0
      var previous: TimedHeight? = nil
      for s in answered(from, to) {
        if let p = previous, nearTop(p) || nearTop(s), inRange(p), inRange(s),
          abs(s.cm - p.cm) >= range - 2 * endCm, tooFast(p, s)
        {
          count += 1
        }
        previous = s
      }
      return count
    }
    guard let from = samples.firstIndex(where: { $0.t >= rise.valley.t }),
      let top = samples[from...].firstIndex(where: { $0.cm > rise.valley.cm + endCm }),
      top > samples.startIndex
    else { return false }
    let left = samples[top - 1].t
    let lookback = answered(left - maxSwitchingLookbackS, left).suffix(lookbackReadings)
    let stepsFrom = min(left - switchingLookbackS, lookback.first?.t ?? left)
    if steps(from: stepsFrom, to: rise.peak.t) >= switchingSteps {
      return true
    }
    guard atTop(samples[top]), atBottom(samples[top - 1]) else { return false }
    var first = top - 1
    while first > samples.startIndex, samples[first - 1].cm == samples[top - 1].cm { first -= 1 }
    let a = samples[first]
    let b =
      answered(a.t, samples[top].t).first { $0.t > samples[top - 1].t && atTop($0) } ?? samples[top]
    guard tooFast(a, b) else { return false }
    // From the top's band to the bottom's: what the steps down must cover.
    let topToBottomCm = (1 - switchingTopShare) * range - endCm
    return steps(from: a.t - switchingLookbackS, to: b.t) >= switchingReturns
      || (bottomReachedByAStep
        && reachedByAStep(
          answered(a.t - switchingLookbackS, b.t), stepsCm: topToBottomCm, atBottom: atBottom,
          nearTop: nearTop, inRange: inRange, tooFast: tooFast))
  }

  /// Whether the bottom the readings left by a step no bar takes was
  /// reached by such steps too: from the last top the bar stood at, by
  /// steps faster than a bar (`maxCrossingCmPerS`) that between them cover
  /// the drop from the top's band to the bottom's, whatever runs lie
  /// between, with no silence on the way. A bar cannot be lowered across
  /// its range in one period (a 60-cm fall from rest takes 0.35 s), so
  /// such a bottom was never the bar's: echo runs (the carrier's legs, a
  /// plate) read under a bar that stayed up. A carried bench bar at 86 cm
  /// read 25 cm four times between 84.5 and 84.3, 0.06 s after the one and
  /// before the other: a 63-cm "rep", a set of one (independent looked-at
  /// 1620090). The echoes come in stages as often: a bar carried at 85 cm
  /// read 62 cm four times, then 34 cm four times, then 85 (1680030, a
  /// 48-cm "rep"), and a carry over a sonar reading the legs at 62, 49
  /// and 36 cm (1830042); the steps' net drop is counted, so an echo under
  /// a bar coming down at a bar's pace, stepped to and back, adds nothing.
  /// One step alone is still a dropout across a ramp (`switchingReturns`),
  /// and a silence on the way down may hide the bar's descent
  /// (`maxSilenceInStepsS`).
  /// Asked of a named squat's or bench press's first rep only (the
  /// analyzer): an echo run mid-pull is reached and left by such steps
  /// too, and a touch-and-go deadlift's first pull was lost (looked-at
  /// 1630076); asked of every rep of a set, a bench press's rep whose
  /// descent a dropout hid (1680064) and a headerless deadlift's (1590032)
  /// were lost. With the top read just before the bottom only (one step
  /// down): 1,200 fresh streams (seeds 1600000–1690119): reports that
  /// were no set 3 → 2, invented 19 → 18; 1,200 more (1500000–): invented
  /// 13 → 11; the seventeen held-out sets: one rep lost (117 → 118).
  /// Steps in stages: looked-at 12,000, reports that were no set 10 → 8,
  /// invented 127 → 124, nothing lost (BENCHMARKS, fifty-first pass).
  private static func reachedByAStep(
    _ readings: [TimedHeight], stepsCm: Double, atBottom: (TimedHeight) -> Bool,
    nearTop: (TimedHeight) -> Bool, inRange: (TimedHeight) -> Bool,
    tooFast: (TimedHeight, TimedHeight) -> Bool
  ) -> Bool {
    let stood = { (i: Int) in
      i > readings.startIndex && nearTop(readings[i]) && nearTop(readings[i - 1])
        && readings[i].t > readings[i - 1].t && readings[i].t - readings[i - 1].t <= maxTopGapS
    }
    guard let last = readings.lastIndex(where: { !atBottom($0) }), last + 1 < readings.endIndex,
      let topIndex = readings.indices[...last].last(where: stood)
    else { return false }
    var stepped = 0.0
    var previous = readings[topIndex]
    for s in readings[(topIndex + 1)...(last + 1)] where inRange(s) {
      guard s.t - previous.t <= maxSilenceInStepsS else { return false }
      if tooFast(previous, s) { stepped += previous.cm - s.cm }
      previous = s
    }
    return stepped >= stepsCm
  }
  /// The longest silence between the readings in range on the way from
  /// the top to a bottom reached by steps: two to six periods at 15–40 Hz,
  /// a lost ping or two (`maxTopGapS`). Longer, the readings missed part of
  /// the way down, and a bar may have been lowered in it: a bench bar's
  /// descent hidden by 0.7 s of no-echo zeros (independent looked-at
  /// 1680064).
  static let maxSilenceInStepsS = 0.15
  /// The top the step left was read twice, at two times this close: the
  /// bar stood there. A single top reading, or two in one batch, after a
  /// dropout is a stray: a bench bar's descent hidden by 0.7 s of
  /// no-echo zeros ended at 92 and 94 cm read at one instant, then the
  /// chest (independent looked-at 1680064). Two to six periods at 15–40
  /// Hz.
  static let maxTopGapS = 0.15
  /// Three round trips between a rise's ends faster than a bar
  /// (`jumpedAcross`). Measured with steps between the two ends' fifths
  /// only (counted to or from the top since, above). Independent
  /// looked-at seeds (six sets): reports
  /// that were no set 7 → 6; 90000–: 3 → 2, invented 13 → 12; tune seeds
  /// 201–600, our held-out seeds and the old independent held-out
  /// unchanged; tune 601–1000 one rep lost (a sensor-faults press whose
  /// echoes and strays made six). At four (two round trips): one more
  /// report that was no set gone (100000–) but a rep lost in 90000– and
  /// in the old held-out (single strays at either end make two steps
  /// each); counted only between runs of two readings or more at each end,
  /// two steps lost 13 first reps, most of them deadlifts' first pulls
  /// (echo runs under the bar), and four caught nothing.
  static let switchingSteps = 6
  /// The fastest a bar crosses three fifths of its range (the steps above
  /// span that much): 2.2 m/s. A rise whose velocity follows a half sine
  /// crosses its fastest three fifths at 1.46 times its mean velocity, and
  /// the fastest sets of the four lifts, at 20–30 % of 1RM, average
  /// 1.3–1.5 m/s (published load-velocity profiles of the squat and bench
  /// press; the independent simulator's fastest, speed squats, 1.5). The
  /// fastest a bar goes at all (`TrackGate.maxSpeedCmPerS`, a snatch's
  /// second pull, 3 m/s) missed a 20-Hz sonar's switches under a bench
  /// bar on the hooks, between the floor (100 cm) and a target 20–26 cm
  /// nearer, with every other ping lost at its maximum range: a switch
  /// across a lost ping is 0.1 s, 2–2.6 m/s, and the set's first rep
  /// passed with five steps of the six, seven at 2.2 m/s (independent
  /// looked-at 710070, a set of one in a rest). Looked-at 12,540: reports
  /// that were no set 8 → 7, invented 152 → 149, nothing lost; 1,200 more
  /// (seeds 1400000–1490119) unchanged; ours unchanged; fifteen held-out
  /// sets invented 35 → 33, nothing lost. At 2 m/s one false set more
  /// gone (1450013's second); at 1.75 a rep lost.
  static let maxCrossingCmPerS = 220.0
  /// Two readings further apart than a bar moves in the time between
  /// them (`maxCrossingCmPerS`).
  static func steppedFasterThanABar(_ a: TimedHeight, _ b: TimedHeight) -> Bool {
    abs(b.cm - a.cm) > maxCrossingCmPerS * (b.t - a.t)
  }
  /// The steps are looked for over `switchingLookbackS` or the last this
  /// many readings sent before the bar left the bottom, whichever reaches
  /// further back (at most `maxSwitchingLookbackS`): three round trips in
  /// a second are all of a 15-Hz sonar's answers, and a squat bar on the
  /// hooks over a sonar switching between 103 and 140 cm at 15 Hz made
  /// four such steps in its second, a 46-cm "single" in the rest
  /// (independent fresh 220118). A fixed 2 s instead cost a paused bench
  /// press at 60 Hz its first rep: its descent's readings against the
  /// echoes under the chest (looked-at 30041).
  static let switchingLookbackReadings = 30
  /// A set's first rep is asked over twice as many (two seconds of a
  /// 30-Hz sonar, one of a 60-Hz one, still within
  /// `maxSwitchingLookbackS`): the bar has rested at its bottom before
  /// it, so a switch seen then is the sonar's, and an overhead press bar
  /// on the hooks over a sonar switching between the floor and a target
  /// 71 cm nearer made five steps in the second before it "left", one
  /// short (independent 610043, 610091: sets of one in the rests). Not a
  /// set's later reps: their lookback reaches into the rep before, and a
  /// dirty floor's echoes at its lockout and descent made the steps (looked-at
  /// 20036, fresh 210116, 2,400 more 460052: touch-and-go deadlift reps
  /// lost when asked over 40 readings). Over 90 a paused bench press at
  /// 60 Hz lost its first rep again (looked-at 30041, above). 2,400 more
  /// independent streams (seeds 420000–420119, 430000–, … 610119): reports that were no set
  /// 9 → 7, invented reps 44 → 39, none lost; looked-at 4,140: one
  /// invented rep fewer; tune 601–1000 one rep lost, the rest of ours
  /// unchanged.
  static let firstRepLookbackReadings = 60
  static let maxSwitchingLookbackS = 3.0
  /// A rep's top is read over this much either side of its lockout
  /// (`Analyzer`'s `jumpedAcrossItsOwnEnds`): two to four readings at
  /// 15–40 Hz, as a bar at lockout stands.
  static let lockoutReadS = 0.1
  /// A step is counted as one to or from the top (`jumpedAcross`) from
  /// this share of the range under the rise's peak: the peak is its
  /// highest reading, and one stray above a switching sonar's upper target
  /// puts that target's readings under the top fifth (a squat bar on the
  /// hooks over a sonar switching between 104 and 141 cm, a stray at 152:
  /// a "single" in the rest, headerless, independent looked-at 90061).
  /// Looked-at 1,020 streams: reports that were no set 5 → 4, invented 32
  /// → 30, missed unchanged, though one of the two was a real first pull
  /// seen at its ends only (70052: its ramp jumped 40 cm in a period and
  /// the sonar read the floor twice at its top; it had been reported 0.4 s
  /// late); 0.4 the same, 0.5 lost a paused bench press's rep. Held out
  /// (80000–, totals): exact 95.5 → 95.8 %, no set 2 → 1, invented 5 → 2;
  /// the other two held-out sets, tune 201–1000, our held-out seeds, the
  /// sweep and the samples unchanged.
  static let switchingTopShare = 0.3

  /// `samples` with the silence across the rise's ramp filled in by the
  /// straight path from the last reading at its bottom to the first at its
  /// top, or nil when the ramp was heard or nothing bounds it. An HC-SR04
  /// that hears no echo (bursts of its maximum range, `s:400`, a USB
  /// stall, a BLE link's lost notifications) can miss a whole concentric
  /// phase: the readings jump from the set's bottom to its top across
  /// `unseenRiseDropoutS` or more, and with no reading on the ramp no end
  /// is fitted and the rep was lost, though the bar was seen at both ends
  /// (and, for the set's rules, came down first). The straight path is
  /// what the readings bound: the bar was at the bottom at one reading and
  /// at the top at the next, so the mean velocity read over it is a lower
  /// bound (those reps read −0.19 m/s on average, MAE 0.37, tune seeds
  /// 201–600). Tried only after every other attempt has failed, and only
  /// for a round trip's rise (`roundTripTop`): a first pull or press from
  /// a stand whose ramp fell in a silence may be the bar cleaned to the
  /// shoulders, its dip unseen, and the straight path no lift's
  /// (`RepRulesTests.aPickupIsNotProvedByAPutDownFromHigherUp`).
  ///
  /// No silence, no path: where the sonar answered in the gap (readings the
  /// track gate rejected), a reading at the top says the bar was there
  /// already and the path ends at it, and a path faster than any bar
  /// (`TrackGate.maxSpeedCmPerS`) is no rep (legs under the sonar read as
  /// a bottom after a squat's last rep, independent looked-at 40068); one
  /// back at the bottom after the top is a sonar switching between two
  /// targets under a resting bar (independent looked-at 40070).
  ///
  /// Tune seeds 201–600: reps missed 211 → 154, exact sets 98.2 → 98.8 %,
  /// invented unchanged; our held-out seeds 5040–5399: missed 84 → 60;
  /// independent looked-at seeds (six sets): missed 60 → 53, invented and
  /// reports that were no set unchanged; old independent held-out: 8 → 7.
  static func bridgedAcrossSilence(
    _ samples: [TimedHeight], rise: TurnFinder.Rise, answered: Answered
  ) -> [TimedHeight]? {
    let range = rise.peak.cm - rise.valley.cm
    guard range > 0, samples.count >= 3 else { return nil }
    let lowCm = rise.valley.cm + seenRampShare * range
    let highCm = rise.peak.cm - seenRampShare * range
    guard
      let i = samples.indices.dropFirst().first(where: { i in
        let a = samples[i - 1]
        let b = samples[i]
        return a.t >= rise.valley.t - unseenRiseDropoutS && b.t <= rise.peak.t + unseenRiseDropoutS
          && b.t - a.t >= unseenRiseDropoutS && a.cm <= lowCm && b.cm >= highCm
      })
    else { return nil }
    var spacings: [Double] = []
    for k in 1..<samples.count { spacings.append(samples[k].t - samples[k - 1].t) }
    spacings.sort()
    let period = spacings[spacings.count / 2]
    guard period > 0 else { return nil }
    // The sonar's own answers in the silence, rejected by the track gate:
    // one at the top says the bar was there. Those below prove nothing
    // (echoes off legs and plates read low).
    let sent = answered(samples[i - 1].t, samples[i].t)
    let b =
      sent.first { $0.cm >= highCm && $0.cm <= rise.peak.cm + seenRampShare * range } ?? samples[i]
    let a = samples[i - 1]
    // A sonar switching between two targets under a resting bar comes
    // back to the bottom after reading the top.
    guard
      !answered(b.t, rise.peak.t + unseenRiseDropoutS).contains(where: { $0.cm <= lowCm })
    else { return nil }
    // No bar crosses a rise faster than a snatch's second pull.
    guard b.cm - a.cm <= TrackGate.maxSpeedCmPerS * (b.t - a.t) else { return nil }
    var out = Array(samples[..<i])
    let n = Int(((b.t - a.t) / period).rounded()) - 1
    if n >= 1 {
      for k in 1...n {
        let f = Double(k) / Double(n + 1)
        out.append(TimedHeight(t: a.t + f * (b.t - a.t), cm: a.cm + f * (b.cm - a.cm)))
      }
    }
    if b.t < samples[i].t { out.append(b) }
    out.append(contentsOf: samples[i...])
    return out
  }

  /// The readings strictly inside the rise's transit (`transit`, 20–80 %).
  static func rampReadings(_ samples: [TimedHeight], rise: TurnFinder.Rise) -> Int {
    guard let ramp = transit(samples, from: rise.valley, to: rise.peak) else { return 0 }
    return samples.count { $0.t > ramp.lowerBound && $0.t < ramp.upperBound }
  }

  /// Whether the readings from the rise's valley to its peak came at
  /// their own rate (no gap longer than `sparseGapSpacings` of their
  /// spacing) and climbed all the way (none under the one before by more
  /// than the gate's margin or three of the noise's σ): a ramp the sonar
  /// saw, however few its readings, over which the slow window may be
  /// widened though fewer than `sparseRampReadings` lie inside its
  /// 20–80 %. A fast squat read at 7.5 Hz (every other ping empty) has
  /// one reading there, and over the unwidened window none rose
  /// (independent looked-at 90073). Without the climb, a sonar switching
  /// between the floor and an echo 9 cm above it, at its rate, made two
  /// "pulls" and a report that was no set (100063). Looked-at (1,020
  /// streams): missed 77 → 76, nothing else changed; tune 201–1000
  /// missed 346 → 343; both held-out sets unchanged.
  static func climbedAtItsRate(_ samples: [TimedHeight], rise: TurnFinder.Rise, noiseCm: Double)
    -> Bool
  {
    let spacing = readingSpacing(samples, rise: rise)
    guard spacing > 0 else { return false }
    let step = max(TrackGate.marginCm, 3 * noiseCm)
    var previous: TimedHeight? = nil
    var n = 0
    for s in samples where s.t >= rise.valley.t && s.t <= rise.peak.t {
      if let p = previous {
        if s.t - p.t > sparseGapSpacings * spacing || s.cm < p.cm - step { return false }
      }
      previous = s
      n += 1
    }
    return n >= 3
  }
  /// A gap longer than this many of the rise's mean reading spacing is
  /// a dropout, not the sonar's rate.
  static let sparseGapSpacings = 1.5

  /// The mean spacing of the readings between the rise's valley and peak
  /// (0 when fewer than two): a clip that skips pings, or a dirty stream
  /// with its echoes removed, reads a rep at half its nominal rate or less.
  static func readingSpacing(_ samples: [TimedHeight], rise: TurnFinder.Rise) -> Double {
    var first: Double? = nil
    var last = 0.0
    var n = 0
    for s in samples where s.t >= rise.valley.t && s.t <= rise.peak.t {
      if first == nil { first = s.t }
      last = s.t
      n += 1
    }
    guard let first, n >= 2 else { return 0 }
    return (last - first) / Double(n - 1)
  }

  /// The concentric duration, roughly: the time from 20 % to 80 % of the
  /// rise, scaled to the whole (a smooth rise spends about 60 % of its time
  /// there). From raw readings: the rise is tens of centimetres, the noise
  /// one.
  static func riseDuration(_ samples: [TimedHeight], rise: TurnFinder.Rise) -> Double? {
    transit(samples, from: rise.valley, to: rise.peak).map(scaled)
  }

  /// A transit's span scaled to the whole move: a smooth move spends about
  /// 60 % of its time between 20 % and 80 % of the way.
  static func scaled(_ transit: ClosedRange<Double>) -> Double {
    (transit.upperBound - transit.lowerBound) / 0.6
  }

  /// The bar's transit between two turns, up or down: from when it was
  /// last short of 20 % of the way to when it next passed 80 %. Read at
  /// the readings' own times, each end lies up to a reading's period
  /// outside the crossing, so the span grows as the rate falls (at 15 Hz a
  /// 0.35 s hump can read longer than a half-second lowering does at the
  /// crossings). `atCrossings` reads both
  /// ends where the straight line between a reading short of the point and
  /// the next one crosses it instead: the same span at any rate. The
  /// rise's duration (`riseDuration`: the window's scale and the drive's
  /// time, `RepRules.minUnheldDriveS`) keeps the readings' times its
  /// constants were measured with (at the crossings, tune seeds 201–600
  /// lost 36 reps of continuous sets).
  static func transit(
    _ samples: [TimedHeight], from: TimedHeight, to: TimedHeight, atCrossings: Bool = false
  ) -> ClosedRange<Double>? {
    let way = to.cm - from.cm
    guard way != 0 else { return nil }
    // How far past the point `share` of the way a reading is, along the
    // move (positive beyond it), so a descent reads as a rise.
    let sign: Double = way > 0 ? 1 : -1
    let past = { (s: TimedHeight, share: Double) in sign * (s.cm - (from.cm + share * way)) }
    guard
      let i20 = samples.lastIndex(where: { $0.t <= to.t && $0.t >= from.t && past($0, 0.2) <= 0 }),
      let i80 = samples[(i20 + 1)...].firstIndex(where: { past($0, 0.8) >= 0 })
    else { return nil }
    guard atCrossings else { return samples[i20].t...samples[i80].t }
    // The reading after i20 is past 20 % and the one before i80 short of
    // 80 % (or i20 itself): each pair straddles its point.
    let crossing = { (a: TimedHeight, b: TimedHeight, share: Double) -> Double in
      let (pa, pb) = (past(a, share), past(b, share))
      return pb > pa ? a.t + (b.t - a.t) * min(-pa / (pb - pa), 1) : b.t
    }
    let t20 = crossing(samples[i20], samples[i20 + 1], 0.2)
    let t80 = crossing(samples[i80 - 1], samples[i80], 0.8)
    return t20 <= t80 ? t20...t80 : nil
  }
}
