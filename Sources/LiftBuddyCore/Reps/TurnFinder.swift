/// Finds where the bar turns, online, on the smoothed height: a zig-zag with
/// hysteresis, so that noise and small wobbles never flip its direction, and
/// a stillness test, so that a top the lifter holds is known without waiting
/// for the bar to come down.
///
/// It says nothing about reps: it reports the shape of the path (rises,
/// holds, bottoms) and leaves "was that a rep?" to `RepRules`, which needs
/// the turns before and after a rise.
struct TurnFinder: Sendable {
  /// Direction changes smaller than this are noise. Three centimetres is
  /// well above the smoothed sonar noise over a hard floor (σ ≈ 0.5 cm)
  /// and below the smallest hitch that still matters.
  static let minHysteresisCm = 3.0
  /// A noisier sonar (a rubber mat, carpet: `SonarNoise`) needs more: the
  /// smoothed height's noise wanders over about ±2.9 σ in the few hundred
  /// independent windows of a rest between sets, so a hysteresis under
  /// 6 σ turns on noise alone (and a rest full of turns never ends a set).
  static let hysteresisSigmas = 6.0
  /// A top (or bottom) that has not moved by more than `stillToleranceCm`
  /// for this long is held: the lockout of a rep is told this soon after
  /// the bar stops, instead of when it starts down again. 0.15 s is three
  /// readings at 20 Hz: a bar still moving at 7 cm/s or more leaves the
  /// tolerance within it. Measured on the sweep (seeds 1–20): 0.15 s and
  /// 0.2 s count the same reps (98.0 / 97.9 % exact sets) and 0.15 s tells
  /// them 0.05 s sooner. Each reading is measured against the running
  /// top, so a bar rising by less than the tolerance a reading (under
  /// 0.2 m/s at 20 Hz) passes too: a lockout's smoothed height creeps in
  /// that way and is told promptly, and a grinder's is refused where a
  /// rep would be counted (`Analyzer.creepingUp`).
  static let stillS = 0.15
  static let minStillToleranceCm = 1.0
  /// Likewise: a held top's smoothed height strays by its noise, and a
  /// tolerance under 2 σ is left by noise within `stillS`, so the top is
  /// never held.
  static let stillSigmas = 2.0

  /// The smoothed height's noise deviation, in cm (`SonarNoise`, through
  /// the smoothing window); 0 until measured.
  var noiseCm = 0.0
  /// Whether the sonar is repeating one value for longer than a resting
  /// bar would (`FrozenSonar.runIsUnlikely`): its readings say nothing of
  /// where the bar is, and a plateau of them is no park.
  var sonarFrozen = false
  var hysteresisCm: Double { max(Self.minHysteresisCm, Self.hysteresisSigmas * noiseCm) }
  var stillToleranceCm: Double { max(Self.minStillToleranceCm, Self.stillSigmas * noiseCm) }
  /// A wider tolerance passes more as still: over a rubber mat (2–3 cm of
  /// noise) a slow press's smoothed height can stay within 2 σ for 0.15 s
  /// while the bar crawls through its sticking region, and reps were
  /// counted there, up to 15 cm short of lockout (soft-floor, tune seeds
  /// 1–40: lockouts 0.052 s early on average, ROM MAE 2.4 cm). A top
  /// settles (`Turn.topSettled`, where a rep is counted unless it holds at
  /// its set's lockout: `RepRules.heldAtTheSetsLockout`) once it has held
  /// for as long as the floor's speed limit (1 cm in `stillS`) takes to
  /// cross the wider tolerance; it still counts as stood at after `stillS`
  /// (the rules for a first rep). On a hard floor (σ ≤ 1 cm) that is
  /// `stillS` itself. Soft-floor: lockouts −0.020 s, ROM 1.86 cm, MV MAE
  /// 0.063 → 0.060, PV 0.153 → 0.127 m/s; first events there 0.17 s later.
  /// Holding `stood` to the same time lost presses on noisy recordings
  /// (their lockouts are brief): 59 → 50 of 60 sets at 1 cm.
  var settleS: Double {
    max(Self.stillS, stillToleranceCm * Self.stillS / Self.minStillToleranceCm)
  }
  /// The bar resting this long part-way up a rise (within the hysteresis)
  /// ended that rise there: a bar carried to the shoulders and pressed a
  /// second later is two moves, not one. A grinder's sticking point slows
  /// the bar but does not park it for most of a second. Resting means read
  /// resting: a sonar frozen on one whole centimetre for longer than a
  /// resting bar repeats it (`sonarFrozen`) parked a press's drive at
  /// 167 cm for 1.1 s until it read 203 (blind looked-at 7000016), and the
  /// rise out of that "park" was a step no rep is measured from.
  /// Independent looked-at 12,000: missed 548 → 524, exact sets +22,
  /// nothing invented, no stream worse; blind looked-at 240: missed 200 →
  /// 191, exact sets +6, none worse (BENCHMARKS, sixty-second pass).
  static let plateauS = 0.8
  /// Only a rise this far beyond the park splits it: more than a shrug or
  /// a re-grip at lockout, less than the shortest press.
  static let plateauExitCm = 8.0
  /// A park less than this many hysteresises above its rise's valley is
  /// the bottom's pause, lifted by the sonar's noise (a paused bench
  /// press's chest read 4 cm higher for the pause after an echo had
  /// dragged the smoothed descent below it: independent looked-at 20117,
  /// 40049), not a stop part-way up: a failed press stalled 8 cm off the
  /// chest and lifted by a spotter (looked-at 40013) is two moves still.
  /// Independent looked-at (1,020 streams): missed reps 87 → 83, invented
  /// 38 → 39; tune 201–1000 missed 349 → 348; both held-out sets
  /// unchanged. Not parking such a plateau at all (the rise going on from
  /// its valley) made four more reports that were no set there, and not
  /// parking under `plateauExitCm` joined stalls to their spotted rises
  /// (invented 38 → 46).
  static let bottomPauseHysteresises = 1.5
  /// A rise that gets less than half way back up to the top the bar came
  /// down from, and turns down again, is no return to the top: the bar is
  /// still at the bottom of its descent (`bumpAtTheBottom`), unless the
  /// bar then rests lower, beyond the same end, for a plateau's time
  /// (`plateauS`): then the bump was a drive that failed, and the bar went
  /// on down from it (a squat stalled 8 cm out of the hole and dumped on
  /// the pins 15 cm lower, `BottomEchoesTests`). Independent looked-at
  /// 12,000: missed 754 → 711, invented 119 → 120 (a dirty raw bench
  /// press's rep found, measured across echoes 0.5 s late), reports that
  /// were no set 5 both; ours: tune 201–1000 missed 251 → 243, held-out
  /// 5000–5199 18 → 17, nothing invented. Held-out 3,960: missed 217 →
  /// 209, invented 37 → 38, no set 2 both. A third of the way: missed
  /// 724, invented 119; two thirds: 701, 122, and a report that was no
  /// set more (all without the rest lower, which costs two reps where
  /// echo runs held the smoothed bottom down for 0.8 s: 709 → 711).
  static let bumpShareOfDescent = 0.5

  /// A rise of the bar from a bottom to a top.
  struct Rise: Equatable, Sendable {
    var valley: TimedHeight
    var peak: TimedHeight
    /// The top the bar came down from into this valley, if it came down
    /// (nil when the rise started from rest after a rise, or at the start).
    var previousPeak: TimedHeight?
    /// When the bar, coming down, first got within the hysteresis of this
    /// valley: the end of the descent, the start of any pause.
    var arrivedAtValleyT: Double
    /// How long the bar stayed at `previousPeak` (within the hysteresis:
    /// a walk-out's steps wobble it by 1–2 cm) before it came down: a
    /// lifter's top is stood at, the hump of a handled clip is not.
    var previousPeakStoodS: Double = 0
  }

  enum Turn: Equatable, Sendable {
    /// The rise in progress has stopped at its top for `stillS`. May come
    /// again for the same rise if the bar then rises further.
    case topHeld(Rise)
    /// The held top has stayed for `settleS` (the same push as `topHeld`
    /// unless the sonar is noisy): the top a rep is counted at, where it
    /// was not at `topHeld` (`RepRules.heldAtTheSetsLockout`).
    case topSettled(Rise)
    /// The bar has come down from the rise's top by the hysteresis.
    case topLeft(Rise)
    /// The bar, coming down (or resting part-way up), has stopped at
    /// `bottom`: it rose from there by the hysteresis (`rising`) or has
    /// stayed there for `stillS`. `from` is the top the descent left (nil
    /// for a park part-way up a rise).
    case bottom(TimedHeight, rising: Bool, from: TimedHeight?)
  }

  private enum Direction { case unknown, rising, falling }
  private var direction = Direction.unknown
  private var extremum: TimedHeight? = nil
  /// When the running extremum last moved by more than the still tolerance.
  private var extremumSettledAt = 0.0
  private var lowest: TimedHeight? = nil
  private var highest: TimedHeight? = nil
  private var valley: TimedHeight? = nil
  private var arrivedAtValleyT = 0.0
  private var arrivedAtBottomT = 0.0
  private var arrivalLevelCm = 0.0
  /// The bar's mean height since it arrived where it is coming down to:
  /// the level of a rest part-way down (`descentResumed`).
  private var sinceArrivalSumCm = 0.0
  private var sinceArrivalCount = 0
  private var peakBeforeValley: TimedHeight? = nil
  private var peakBeforeValleyStoodS = 0.0
  private var lastPeak: TimedHeight? = nil
  private var lastPeakStoodS = 0.0
  /// A bump at the bottom of the descent under way (`bumpAtTheBottom`):
  /// its top, how long it stood there, and the bottom it rose from, until
  /// the descent ends.
  private var bump: (peak: TimedHeight, stoodS: Double, fromCm: Double)? = nil
  /// The rising bar's path, to tell when it arrived at its top (the last
  /// reading below it by the hysteresis), and when it was last there: how
  /// long it stood at the top.
  private var risePath = LowPoints()
  private var nearPeakT = 0.0
  /// The top last told as held, so a hold is told once.
  private var heldTop: TimedHeight? = nil
  private var settledTop: TimedHeight? = nil
  private var bottomHeld = false
  /// Where and since when the bar has stayed within the hysteresis while
  /// rising: the plateau that may split the rise.
  private var plateauStart: TimedHeight? = nil
  /// The plateau's readings (their sum and count): a park is where the
  /// bar stood on it, their mean, not where it began. It begins at the
  /// first reading the rest stay within the hysteresis of, and over a
  /// noisy sonar (a 9-cm hysteresis) that can be a drive's tail: a paused
  /// bench press's lockout read 91 cm as the drive slowed, then 96–99
  /// across no-echo values, was parked at 91, and the 100 cm after it
  /// made a new rise out of the park; the rep, 58 → 91 cm, was then no
  /// round trip from the 101-cm stand it was lowered from, and the
  /// spotter's rise after the set's failed rep a set of one (independent
  /// looked-at 630077, 560033). Looked-at 12,000: missed 794 → 764,
  /// invented 139 → 134, reports that were no set 14 → 13 (44 streams
  /// better, 11 worse: a grinder's park part-way up sits higher, and a
  /// press's rise out of it is shorter); ours: held-out and sweep counts
  /// unchanged, tune 201–600 missed 113 both (three reps found in one
  /// stream, one lost in each of three), 601–1000 140 → 142. At the
  /// plateau's highest reading instead: missed 797, invented 126,
  /// deadlifts' floor parks lifted by their echoes.
  private var plateauSum = 0.0
  private var plateauCount = 0
  /// How much of the plateau a frozen sonar read (`sonarFrozen`), and
  /// when it was last read there.
  private var plateauFrozenS = 0.0
  private var plateauLastT = 0.0
  /// A plateau that lasted `plateauS`: the bar was parked there
  /// (`plateauSum`).
  private var parked: TimedHeight? = nil
  /// The highest the bar went after it was parked, short of a new rise,
  /// when it last got there from below the hysteresis, and when it was
  /// last within the hysteresis of it: where the bar stood, and for how
  /// long, when it came down (`parkedRiseLeft`).
  private var beyondPark: TimedHeight? = nil
  private var arrivedBeyondParkT = 0.0
  private var nearBeyondParkT = 0.0

  mutating func push(_ p: TimedHeight, emit: (Turn) -> Void) {
    switch direction {
    case .unknown:
      if lowest == nil || p.cm < lowest!.cm { lowest = p }
      if highest == nil || p.cm > highest!.cm { highest = p }
      if p.cm > lowest!.cm + hysteresisCm {
        valley = lowest
        arrivedAtValleyT = lowest!.t
        startRising(at: p)
      } else if p.cm < highest!.cm - hysteresisCm {
        lastPeak = highest
        lastPeakStoodS = .infinity  // where the stream found the bar, standing
        startFalling(at: p)
      }
    case .rising:
      rising(p, emit: emit)
    case .falling:
      falling(p, emit: emit)
    }
  }

  private mutating func rising(_ p: TimedHeight, emit: (Turn) -> Void) {
    guard let top = extremum, let bottom = valley else { return }
    // Once parked, the rise's top stays where the bar was parked: a few
    // centimetres more (the bar lifted onto the hooks, a shrug at lockout)
    // are another move, and only `plateauExitCm` starts a new rise.
    if p.cm > top.cm, parked == nil {
      if p.cm > top.cm + stillToleranceCm { extremumSettledAt = p.t }
      extremum = p
    }
    if let park = parked, p.cm > (beyondPark ?? park).cm {
      beyondPark = p
      arrivedBeyondParkT = risePath.lastTime(below: p.cm - hysteresisCm) ?? park.t
    }
    if let beyond = beyondPark, p.cm >= beyond.cm - hysteresisCm { nearBeyondParkT = p.t }
    let peak = extremum!
    if p.cm >= peak.cm - hysteresisCm { nearPeakT = p.t }
    if let start = plateauStart, abs(p.cm - start.cm) <= hysteresisCm {
      plateauSum += p.cm
      plateauCount += 1
      if sonarFrozen { plateauFrozenS += p.t - plateauLastT }
      plateauLastT = p.t
      if parked == nil, p.t - start.t - plateauFrozenS >= Self.plateauS {
        parked = TimedHeight(t: start.t, cm: plateauSum / Double(plateauCount))
      }
    } else {
      startPlateau(at: p)
    }
    if let park = parked, p.cm > park.cm + Self.plateauExitCm {
      // Parked, then lifted well beyond: a new rise starts from the park.
      emit(.topLeft(rise(from: bottom, to: park)))
      emit(.bottom(park, rising: true, from: nil))
      lastPeak = park
      valley = park
      // Parked within the noise of its bottom, the bar paused there: the
      // rise from the pause is the return of the descent before it, which
      // keeps its top and its arrival.
      let paused =
        park.cm - bottom.cm < Self.bottomPauseHysteresises * hysteresisCm
        && peakBeforeValley.map { $0.cm > park.cm + Self.plateauExitCm } == true
      if !paused {
        peakBeforeValley = park
        lastPeakStoodS = p.t - park.t
        peakBeforeValleyStoodS = lastPeakStoodS
        arrivedAtValleyT = park.t
      }
      heldTop = nil
      settledTop = nil
      parked = nil
      beyondPark = nil
      startPlateau(at: p)
      extremum = p
      extremumSettledAt = p.t
      nearPeakT = p.t
      risePath.reset()
      risePath.push(p)
      return
    }
    if p.cm < peak.cm - hysteresisCm {
      if let beyond = beyondPark, beyond.cm > peak.cm + hysteresisCm,
        nearBeyondParkT - arrivedBeyondParkT >= RepRules.minStandBeforeSetS
      {
        parkedRiseLeft(from: beyond)
      } else {
        let stoodS = stoodAtPeakS(from: bottom)
        if bumpAtTheBottom(peak, stoodS: stoodS, at: p.t) {
          lastPeak = peakBeforeValley
          lastPeakStoodS = peakBeforeValleyStoodS
          bump = (peak, stoodS, bottom.cm)
        } else {
          lastPeak = peak
          lastPeakStoodS = stoodS
        }
      }
      emit(.topLeft(rise(from: bottom, to: peak)))
      startFalling(at: p)
      return
    }
    risePath.push(p)
    let current = rise(from: bottom, to: peak)
    let held = p.t - extremumSettledAt
    if held >= Self.stillS, heldTop == nil || peak.cm > heldTop!.cm + stillToleranceCm {
      heldTop = peak
      emit(.topHeld(current))
    }
    if held >= settleS, settledTop == nil || peak.cm > settledTop!.cm + stillToleranceCm {
      settledTop = peak
      emit(.topSettled(current))
    }
  }

  /// How long the rising bar has stood at its top: from when it last got
  /// there from below the hysteresis to when it was last within it.
  private func stoodAtPeakS(from bottom: TimedHeight) -> Double {
    guard let peak = extremum else { return 0 }
    let arrived = risePath.lastTime(below: peak.cm - hysteresisCm) ?? bottom.t
    return max(0, nearPeakT - arrived)
  }

  /// Whether a rise that turned down at `peak` was a bump at the bottom
  /// of the descent before it, which then goes on: less than
  /// `bumpShareOfDescent` of the way back up to the top the bar came down
  /// from, not stood at (`RepRules.minStandBeforeSetS`), and within the
  /// longest pause at a rep's bottom (`RepRules.maxBottomPauseS`) of the
  /// bar's arrival there. The descent's top is then still the top the bar
  /// came down from, not the bump: echoes under a paused bench press's
  /// chest, or a frozen sonar's run, made a bump of 8 cm at the bottom of
  /// a 32-cm descent, and the rep that followed "came down" from the bump
  /// and was no round trip to the stand (independent looked-at 430001:
  /// all three sets' first reps missed; 1930037). A pause and a bump
  /// longer than a rep's, a rest on the hooks with the unrack after it,
  /// are not (looked-at 510075: the rack's hooks, 7 s after a clip was
  /// lifted over them, were "a bottom" under that clip's hump, and the
  /// set's first descent came down from the hump).
  private func bumpAtTheBottom(_ peak: TimedHeight, stoodS: Double, at t: Double) -> Bool {
    guard let before = peakBeforeValley, let bottom = valley else { return false }
    return peak.cm - bottom.cm < Self.bumpShareOfDescent * (before.cm - bottom.cm)
      && stoodS < RepRules.minStandBeforeSetS
      && t - arrivedAtValleyT <= RepRules.maxBottomPauseS
  }

  /// A plateau begins at `p` (`plateauSum`).
  private mutating func startPlateau(at p: TimedHeight) {
    plateauStart = p
    plateauSum = p.cm
    plateauCount = 1
    plateauFrozenS = 0
    plateauLastT = p.t
  }

  /// Forgets that the rising bar's top settled, so that it is told again
  /// the next time it holds (`Analyzer`: a grinder still creeping up).
  mutating func unsettleTop() {
    settledTop = nil
  }

  /// A parked rise's top stays the park (`plateauExitCm`), but the bar
  /// that comes down may have stood higher (beyond the hysteresis, for the
  /// stand a lifter takes before a set, `RepRules.minStandBeforeSetS`): a
  /// bench press lifted off hooks below its lockout (6–12 cm) and held
  /// there before the set's first descent, a squat stood up out of the
  /// hooks. The descent left that stand, and the set's first rep comes
  /// back to it, not to the hooks (independent looked-at 70037: a clean
  /// paused bench press's first rep, 7.5 cm above the hooks it was
  /// "lowered from", was no round trip). A hump that did not stand (a
  /// spike through the smoothing, the bar lifted over the hooks' lip)
  /// leaves the park the top (tune sensor-faults 334).
  private mutating func parkedRiseLeft(from top: TimedHeight) {
    lastPeak = top
    lastPeakStoodS = max(0, nearBeyondParkT - arrivedBeyondParkT)
  }

  /// The rise from `bottom` to `peak`, with what is known of the descent
  /// into `bottom`.
  private func rise(from bottom: TimedHeight, to peak: TimedHeight) -> Rise {
    Rise(
      valley: bottom, peak: peak, previousPeak: peakBeforeValley,
      arrivedAtValleyT: arrivedAtValleyT, previousPeakStoodS: peakBeforeValleyStoodS)
  }

  /// End of data: a rise still going up is told as held at its top (a
  /// stream that stops at lockout).
  mutating func flush(emit: (Turn) -> Void) {
    guard direction == .rising, let peak = extremum, let bottom = valley,
      settledTop == nil || peak.cm > settledTop!.cm + stillToleranceCm
    else { return }
    let current = rise(from: bottom, to: peak)
    if heldTop == nil || peak.cm > heldTop!.cm + stillToleranceCm {
      heldTop = peak
      emit(.topHeld(current))
    }
    settledTop = peak
    emit(.topSettled(current))
  }

  private mutating func falling(_ p: TimedHeight, emit: (Turn) -> Void) {
    guard let bottom = extremum else { return }
    if p.cm < bottom.cm {
      if p.cm < bottom.cm - stillToleranceCm { extremumSettledAt = p.t }
      // A new low beyond the hysteresis restarts the arrival: the bar was
      // still on its way down.
      if p.cm < arrivalLevelCm - hysteresisCm {
        if p.t - arrivedAtBottomT >= RepRules.maxBottomPauseS { descentResumed(at: p) }
        arrived(at: p)
        bottomHeld = false
      }
      extremum = p
    }
    sinceArrivalSumCm += p.cm
    sinceArrivalCount += 1
    let low = extremum!
    // Resting lower than the bump rose from: the bar went on down, and the
    // bump was a drive that failed, a top of its own.
    if let b = bump, let top = peakBeforeValley, low.cm < b.fromCm,
      !RepRules.sameEnd(low.cm, b.fromCm, rangeCm: top.cm - b.fromCm),
      p.t - extremumSettledAt >= Self.plateauS
    {
      lastPeak = b.peak
      lastPeakStoodS = b.stoodS
      bump = nil
    }
    if p.cm > low.cm + hysteresisCm {
      peakBeforeValley = lastPeak
      peakBeforeValleyStoodS = lastPeakStoodS
      valley = low
      arrivedAtValleyT = arrivedAtBottomT
      if !bottomHeld { emit(.bottom(low, rising: true, from: lastPeak)) }
      startRising(at: p)
      return
    }
    if !bottomHeld, p.t - extremumSettledAt >= Self.stillS {
      bottomHeld = true
      emit(.bottom(low, rising: false, from: lastPeak))
    }
  }

  /// The bar, coming down, rested longer than any lift pauses
  /// (`RepRules.maxBottomPauseS`) and then went lower: it was put down
  /// there, and the descent it makes now leaves that rest (at its mean
  /// height, stood at for as long as it rested), not the top it came down
  /// from before. A bench press re-racked onto hooks below the lockout it
  /// was lifted over, and dipped by a hand on the clip a minute later,
  /// came "down" from the re-rack's stand (tune clip-handling 847: a
  /// "set" of one); a squat re-racked onto hooks 5 cm under its lockout
  /// is walked out at the hooks' height and lowered into the next set
  /// from there (independent looked-at 30075), not from the re-rack two
  /// minutes before. Reports that were no set: tune 601–1000 5 → 3, our
  /// held-out seeds 14 → 12, looked-at 1–6 5 → 4; one new (tune
  /// rack-session 680: a burst of garbage and a silence in a rest on the
  /// hooks, read as a round trip from that rest).
  private mutating func descentResumed(at p: TimedHeight) {
    lastPeak = TimedHeight(
      t: arrivedAtBottomT, cm: sinceArrivalSumCm / Double(max(1, sinceArrivalCount)))
    lastPeakStoodS = p.t - arrivedAtBottomT
  }

  private mutating func arrived(at p: TimedHeight) {
    arrivalLevelCm = p.cm
    arrivedAtBottomT = p.t
    sinceArrivalSumCm = 0
    sinceArrivalCount = 0
  }

  private mutating func startRising(at p: TimedHeight) {
    direction = .rising
    bump = nil
    extremum = p
    extremumSettledAt = p.t
    nearPeakT = p.t
    risePath.reset()
    risePath.push(p)
    heldTop = nil
    settledTop = nil
    startPlateau(at: p)
    parked = nil
    beyondPark = nil
  }

  private mutating func startFalling(at p: TimedHeight) {
    direction = .falling
    extremum = p
    extremumSettledAt = p.t
    arrived(at: p)
    sinceArrivalSumCm = p.cm
    sinceArrivalCount = 1
    bottomHeld = false
  }

  /// The readings of a rise that no later reading went below: enough to
  /// answer "when was the bar last below this height?" for any height, in
  /// a few entries (a bar standing still pops them as fast as it adds
  /// them). Bounded: on a long slow rise the oldest, lowest go first.
  struct LowPoints: Sendable {
    static let capacity = 256
    private var points: [TimedHeight] = []

    mutating func push(_ p: TimedHeight) {
      while let last = points.last, last.cm >= p.cm { points.removeLast() }
      if points.count == Self.capacity { points.removeFirst() }
      points.append(p)
    }

    mutating func reset() { points.removeAll(keepingCapacity: true) }

    func lastTime(below cm: Double) -> Double? {
      points.last(where: { $0.cm < cm })?.t
    }
  }
}
