/// The readings under a rep's bottom that were not the bar: the HC-SR04's
/// echoes off the plates, the feet, a leg or the bench answer for a few
/// readings at a time (runs of 3–5), often as the bar turns at its
/// bottom, where the track gate (`TrackGate`) cannot tell them from a bar
/// still going down. Taken for the bar, they make the rise's valley, and
/// the rep measures 10–40 cm long, from the wrong start, or over the lift's
/// `RepRules.maxRomCm` and is no rep at all.
///
/// Where the bar's bottom is known, a rise is measured without them:
/// - a deadlift's bottom is the floor it lies on (`RepRules.floorCm`), and
///   nothing below it is the bar;
/// - another lift's is its set's bottom (`SetTracker.band`): the chest, the
///   shoulders, the lifter's depth, give or take the set's own tolerance
///   (`RepRules.sameEnd`) or `RepRules.floorMarginSigmas` of the noise. A
///   bar may go lower than that (a squat dumped on the safety pins, a bench
///   bar on its spotter arms) and stay there; only runs under it no longer
///   than `maxRunS`, or stepped into and out of faster than a bar moves,
///   are echoes.
///
/// The turn finder's valley is a smoothed one: where it lies under the
/// bottom with only echoes near it, the rise is measured from the lowest
/// reading kept from `valleySearchS` before it to its top.
///
/// Where the gate followed the echoes it also dropped the bar's own
/// readings back up: without the echoes too little is left to measure,
/// and the analyzer measures the rise as read (a rep counted with the
/// wrong range rather than lost). Compared with the deadlift floor alone
/// (tune seeds 201–600, 4,400 streams): reps missed 235 → 224, invented 16 both;
/// our held-out seeds 5040–5399: missed 92 → 90; independent looked-at
/// seeds (six sets, 660 streams): missed 76 → 71, invented 36 → 38 (the
/// walk-in echoes after a squat set's last rep, once that rep measured
/// right, rose as one more: 70069); exact sets 96.9 → 97.5 %, 92.8 →
/// 93.1 % and 94.8 → 94.5 % on the three that moved.
enum BottomEchoes {
  /// 3–5 readings at 15–20 Hz last up to 0.33 s.
  static let maxRunS = 0.4
  /// The smoother's window and a reading's spacing: how far the smoothed
  /// valley may lie from the readings that made it.
  static let valleySearchS = 0.3
  /// How far either side of the readings the sonar's answers are looked
  /// at to tell how a run at their edge was entered and left
  /// (`withoutEchoRuns`): a second holds 15 or more readings, and any
  /// silence a run's step could hide within one rep.
  static let answeredMarginS = 1.0

  /// The rise and its samples without the echoes under its bottom, or nil
  /// when none is known or none were there.
  static func removed(
    from samples: [TimedHeight], rise: TurnFinder.Rise, exercise: Exercise?,
    band: RepRules.Ends?, noiseCm: Double, answered: RepMeasurer.Answered? = nil
  ) -> (samples: [TimedHeight], rise: TurnFinder.Rise)? {
    if exercise == .deadlift {
      guard
        let floor = RepRules.floorCm(under: rise, inSet: band, samples: samples, noiseCm: noiseCm)
      else { return nil }
      guard rise.valley.cm < floor.lowestCm || samples.contains(where: { $0.cm < floor.lowestCm })
      else { return nil }
      var lifted = rise
      if lifted.valley.cm < floor.lowestCm { lifted.valley.cm = floor.levelCm }
      return (samples.filter { $0.cm >= floor.lowestCm }, lifted)
    }
    guard let band else { return nil }
    let lowest = band.bottomCm - toleranceCm(of: band, noiseCm: noiseCm)
    guard samples.contains(where: { $0.cm < lowest }) else { return nil }
    let kept = withoutEchoRuns(samples, under: lowest, answered: answered)
    var lifted = rise
    if rise.valley.cm < lowest,
      !kept.contains(where: { abs($0.t - rise.valley.t) < valleySearchS && $0.cm < lowest }),
      let low = kept.lazy.filter({ $0.t > rise.valley.t - valleySearchS && $0.t < rise.peak.t })
        .min(by: { $0.cm < $1.cm })
    {
      lifted.valley = low
    }
    return kept.count == samples.count && lifted == rise ? nil : (kept, lifted)
  }

  /// A set's first rep has no set bottom to judge its echoes by, but it
  /// has its own: the pause the bar stood in before its drive (a paused
  /// bench press held on the chest, a squat's hole). Under a paused bench
  /// press the spotter's hands and the bench answer in runs for 0.4–0.6 s
  /// at the bottom, 30–50 cm under the chest; the gate, seeing the bar
  /// still coming down, follows them and drops the bar's own readings
  /// between, and the rise, read from the echoes, spans more than the
  /// lift allows (`RepRules.maxRomCm`: an 87-cm "bench press"), so the set
  /// lost its first rep (independent looked-at 70109, 9029, 30113; 30101
  /// and 100181 likewise, but with too few of the bar's readings left on
  /// the chest to show its pause). Where the rise as read is over that
  /// bound, and the bar last stood (`RepRules.standLevel`, within
  /// `RepRules.maxBottomPauseS` before the valley or after it) above its
  /// valley and `minRiseCm` under its top, with nothing under that stand
  /// after it but echo runs (`maxRunS`: the hands answer as the heavy bar
  /// leaves the chest too, 30113), the rise is measured from the stand's
  /// last reading, without the readings under it.
  /// Only a rise that would be no rep at all is measured again, and the
  /// rules that then judge it (a set's first rep comes down first from a
  /// stand) are the turn finder's rise's, unchanged.
  static func underThePause(
    from samples: [TimedHeight], rise: TurnFinder.Rise, maxRomCm: Double, minRiseCm: Double,
    noiseCm: Double
  ) -> (samples: [TimedHeight], rise: TurnFinder.Rise)? {
    guard rise.peak.cm - rise.valley.cm > maxRomCm,
      // Each window from the readings before its end only: the search
      // walks back reading by reading, each window `minStandBeforeSetS`.
      let stand = samples.indices.reversed().lazy
        .filter({
          samples[$0].t <= rise.peak.t && samples[$0].t > rise.valley.t - RepRules.maxBottomPauseS
        })
        .compactMap({ end in
          RepRules.standLevel(samples[...end], endingAt: samples[end].t, noiseCm: noiseCm).map {
            (end: end, level: $0)
          }
        })
        .first(where: { $0.level <= rise.peak.cm - minRiseCm })
    else { return nil }
    let level = stand.level
    let margin = max(RepRules.sameEndMinCm, RepRules.floorMarginSigmas * noiseCm)
    let lowest = level - margin
    // The stand's last reading at its level (its window may end on a
    // stray, or on the first reading of a dip out of it).
    guard rise.valley.cm < lowest, rise.peak.cm - level <= maxRomCm,
      let left = samples[...stand.end].last(where: { abs($0.cm - level) <= margin / 2 }),
      withoutEchoRuns(samples.filter { $0.t > left.t && $0.t < rise.peak.t }, under: lowest)
        .allSatisfy({ $0.cm >= lowest })
    else { return nil }
    let from = min(rise.valley.t, left.t - RepRules.minStandBeforeSetS) - valleySearchS
    let under = { (s: TimedHeight) in s.t > from && s.t < rise.peak.t && s.cm < lowest }
    var paused = rise
    paused.valley = TimedHeight(t: left.t, cm: level)
    return (samples.filter { !under($0) }, paused)
  }

  /// A rep with no pause at its bottom has no stand to be measured from
  /// (`underThePause`), but its lift still bounds it: no bar of that lift
  /// goes further below its top than `RepRules.maxRomCm`. Where the rise as
  /// read spans more, and everything under that bound since the descent
  /// began came in short runs (`maxRunS`), the runs were echoes (a
  /// spotter's hands under a touch-and-go bench press's bottom, let in as
  /// the bar turned) and the rise is measured from the lowest reading left.
  /// Independent looked-at 1,020: one rep more found (100132; measured
  /// from where the hands began, 0.34 against 0.79 m/s: the bar's bottom
  /// is under them); fresh 1,440 unchanged; held-out, second set, two
  /// reps more (96.4 → 97.0 % exact), the other five unchanged; tune
  /// 201–600 two more (sensor faults), ours held-out one; nothing
  /// invented. Not where the sonar repeated one value down there
  /// (`StuckReadings.minRun` or more): a stuck sonar says nothing of where
  /// the bar went, and what is left of such a rise was a bench press's
  /// lift-off, 11 cm, counted as a set's first rep (our tune sensor-faults
  /// 765).
  static func underTheRange(
    from samples: [TimedHeight], rise: TurnFinder.Rise, maxRomCm: Double, minRiseCm: Double,
    answered: RepMeasurer.Answered? = nil
  ) -> (samples: [TimedHeight], rise: TurnFinder.Rise)? {
    guard rise.peak.cm - rise.valley.cm > maxRomCm, let top = rise.previousPeak else { return nil }
    let lowest = rise.peak.cm - maxRomCm
    let inside = { (s: TimedHeight) in s.t > top.t && s.t < rise.peak.t }
    let window = samples.filter(inside)
    var repeats = 0
    for (a, b) in zip(window, window.dropFirst()) {
      repeats = b.cm < lowest && b.cm == a.cm ? repeats + 1 : 0
      if repeats + 1 >= StuckReadings.minRun { return nil }
    }
    let kept = withoutEchoRuns(window, under: lowest, answered: answered)
    guard kept.allSatisfy({ $0.cm >= lowest }),
      let low = kept.lazy.filter({ $0.t > rise.valley.t - valleySearchS }).min(by: {
        $0.cm < $1.cm
      }),
      rise.peak.cm - low.cm >= minRiseCm
    else { return nil }
    var lifted = rise
    lifted.valley = low
    return (samples.filter { !(inside($0) && $0.cm < lowest) }, lifted)
  }

  /// A set's rise that no reading kept measures: the track gate, having
  /// followed echoes under the bar's bottom down (a touch-and-go bench
  /// press's spotter's hands at 15 cm under a 60-cm chest, independent
  /// looked-at 1420108), held on to them and dropped the bar's own
  /// readings back up, and what it kept spans more than the lift allows
  /// or too little to fit. The sonar still sent them (`answered`): those
  /// within the set's ends (its bottom and top, give or take `sameEnd` or
  /// `RepRules.floorMarginSigmas` of the noise) between the rise's valley
  /// (less `valleySearchS`) and its top are let back in, the short runs
  /// under the bottom taken out, and the rise measured from the lowest
  /// reading left, which must be at the set's bottom: a rise read from
  /// part-way up is no rep of the set's. Nil when nothing was dropped.
  /// What this measures is weaker evidence than a rep the gate kept: the
  /// analyzer counts it only as a rep like the set's own
  /// (`RepRules.likeTheSetsReps`).
  static func readmitted(
    from samples: [TimedHeight], answered: RepMeasurer.Answered, rise: TurnFinder.Rise,
    band: RepRules.Ends, noiseCm: Double
  ) -> (samples: [TimedHeight], rise: TurnFinder.Rise)? {
    let tolerance = toleranceCm(of: band, noiseCm: noiseCm)
    let lowest = band.bottomCm - tolerance
    let from = rise.valley.t - valleySearchS
    let inside = { (s: TimedHeight) in s.t > from && s.t < rise.peak.t }
    let kept = Set(samples.lazy.filter(inside).map(\.t))
    let dropped = answered(from, rise.peak.t).filter {
      !kept.contains($0.t) && $0.cm >= lowest && $0.cm <= band.topCm + tolerance
    }
    guard !dropped.isEmpty else { return nil }
    let merged = withoutEchoRuns((samples + dropped).sorted { $0.t < $1.t }, under: lowest)
    guard let low = merged.lazy.filter(inside).min(by: { $0.cm < $1.cm }),
      low.cm >= lowest, low.cm <= band.bottomCm + tolerance
    else { return nil }
    var lifted = rise
    lifted.valley = low
    return (merged, lifted)
  }

  /// How far from a set's ends the bar may still be read at them: the
  /// set's own same-end tolerance, or `RepRules.floorMarginSigmas` of the
  /// readings' noise over a dirty floor.
  private static func toleranceCm(of band: RepRules.Ends, noiseCm: Double) -> Double {
    max(
      RepRules.sameEndToleranceCm(rangeCm: band.rangeCm), RepRules.floorMarginSigmas * noiseCm)
  }

  /// The samples without their runs under `lowest` of at most `maxRunS`,
  /// or of any length where the run was entered and left by steps faster
  /// than a bar (`RepMeasurer.steppedFasterThanABar`): a bar lowered onto the spotter arms
  /// or the pins goes down at a bar's speed and lies there, while a
  /// target that moves with the bar (the plates' rims, a spotter's hands
  /// under a grinding rep) is answered at once and for as long as it stays
  /// under the sonar, and the bar is read again where it was the reading
  /// after. A bench press near failure read 69 cm at its bottom, 22 cm for
  /// 1 s, then 74 cm and on up (blind simulator 7000181).
  ///
  /// Where the sonar's answers are at hand (`answered`), the runs are found
  /// and judged on them rather than on the readings the gate kept: a run
  /// of 0.4 s or more becomes the gate's track (`TrackGate.reanchorS`),
  /// which then drops the bar's first readings after it as off the track,
  /// and the run, judged on what the gate kept, was left at a bar's pace.
  /// 7000181's fifth rep, above: the gate took the echoes for the track
  /// and dropped the bar's first ten readings back up (74.3–79.7 cm), and
  /// kept 22.8 cm, then 80.6 cm 0.33 s later (1.8 m/s); the sonar had
  /// answered 74.3 cm 0.03 s after the 22.8. The rep was lost; now it
  /// reads 43.9 cm at 0.159 m/s (truth 43.9, 0.157). Blind looked-at
  /// missed 182 → 171, independent looked-at 506 → 498, nothing invented
  /// and no stream worse in either. The reps found are measured from the
  /// bar's first reading after the echoes: where those hid the bottom
  /// itself, short (blind looked-at ROM MAE 1.28 → 1.32 cm, MV 0.0376 →
  /// 0.0380 m/s over 11 more paired reps).
  private static func withoutEchoRuns(
    _ samples: [TimedHeight], under lowest: Double, answered: RepMeasurer.Answered? = nil
  ) -> [TimedHeight] {
    guard let first = samples.first, let last = samples.last else { return samples }
    let sent = answered.map { $0(first.t - answeredMarginS, last.t + answeredMarginS) } ?? samples
    let echoes = echoRuns(in: sent, under: lowest)
    guard !echoes.isEmpty else { return samples }
    return samples.filter { s in s.cm >= lowest || !echoes.contains(where: { $0.contains(s.t) }) }
  }

  /// The spans of `readings`' runs under `lowest` that were echoes: no
  /// longer than `maxRunS`, or entered and left by steps faster than a bar
  /// (`RepMeasurer.steppedFasterThanABar`).
  private static func echoRuns(in readings: [TimedHeight], under lowest: Double)
    -> [ClosedRange<Double>]
  {
    var echoes: [ClosedRange<Double>] = []
    var run = readings.startIndex
    while run < readings.endIndex {
      guard readings[run].cm < lowest else {
        run += 1
        continue
      }
      var last = run
      while last + 1 < readings.endIndex, readings[last + 1].cm < lowest { last += 1 }
      if readings[last].t - readings[run].t <= maxRunS
        || (run > readings.startIndex && last + 1 < readings.endIndex
          && RepMeasurer.steppedFasterThanABar(readings[run - 1], readings[run])
          && RepMeasurer.steppedFasterThanABar(readings[last], readings[last + 1]))
      {
        echoes.append(readings[run].t...readings[last].t)
      }
      run = last + 1
    }
    return echoes
  }
}
