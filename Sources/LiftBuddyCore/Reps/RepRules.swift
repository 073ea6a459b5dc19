/// What makes a rise of the bar a rep: the rule of the core's README, in
/// one place.
///
/// A rep is a round trip of the bar between the set's own bottom and top.
/// A one-way move (the bar lifted onto the rack or to the shoulders, put
/// down, unracked, re-racked, carried) never comes back to where it left, so
/// the proof of a rep is the other half of the trip:
///
/// - eccentric-first (squat, bench press): the bar came down from a top
///   into the rise's bottom, paused there at most `maxBottomPauseS`, and
///   rose back to that top;
/// - concentric-first (deadlift, overhead press): the bar rose from a
///   bottom, held its top at most `maxLockoutHoldS`, and came back down to
///   that bottom.
///
/// In a set, a rise is a rep when it ends at the set's top and starts at its
/// bottom, or reaches the top by a round trip from it (a shallow squat
/// still counts; the coach flags it).
enum RepRules {
  /// Two ends are "the same place" within this: at least 5 cm (sonar
  /// noise, a bar settling on the hooks or the floor, a lifter's stance)
  /// and a fifth of the rise (lifters vary their depth and lockout by
  /// that much within a set without it stopping being the same lift).
  static let sameEndMinCm = 5.0
  static let sameEndShareOfRise = 0.2
  /// The longest pause at the bottom of an eccentric-first rep: paused
  /// squats and bench presses hold 1–3 s; a bar set down for longer was put
  /// down, not lifted.
  static let maxBottomPauseS = 4.0
  /// The longest hold at the top of a concentric-first rep before it comes
  /// back down: a lockout is shown for 1–3 s (the two independent
  /// simulators hold at most 1.5 and 2.0 s, ours 3 s), and is timed long
  /// (`Analyzer.heldAtTop`: the smoothed track leaves the top 0.25 s
  /// behind the bar, more over a noisy floor); a bar held longer is being
  /// carried or walked. Timed to the last reading at the top, not to the
  /// first dip of a step: a deadlift session's pick-up, carried to the
  /// platform for 2.1–4.4 s with a dip at each step and put down, read as
  /// a single pull held at its lockout (blind looked-at 7000123, 7000135:
  /// reports that were no set). Our own legacy sweep (tune 201–1000)
  /// missed 3 reps before (4 s, timed to the first leave), 6 at 3.5 s and
  /// 15 at 3.25 s (first pulls held up to 3 s); blind looked-at and
  /// held-out reports that were no set: 8 and 8 before, 5 and 4 at 3.5 s,
  /// 4 and 3 at 3.25 s.
  static let maxLockoutHoldS = 3.5

  /// The rise's own ends, as the turn finder saw them (smoothed heights).
  struct Ends: Equatable, Sendable {
    var bottomCm: Double
    var topCm: Double
    var rangeCm: Double { topCm - bottomCm }
  }

  /// The longest bar travel each lift allows, in cm: the limb that moves
  /// the bar bounds it (segment lengths as shares of body height H,
  /// Drillis & Contini 1966). A press travels at most the arm, shoulder to
  /// grip ≈ 0.39 H: 78 cm for a 2 m lifter; a bench press less, by the
  /// chest's depth; a deadlift from the floor (bar at 22 cm) to the
  /// knuckles at lockout ≈ 0.46 H; a squat from the shoulders at ≈ 0.82 H
  /// to a full depth near 0.4 H. Margins for a very tall lifter added. A
  /// rise beyond is the bar lifted from the floor (a clean: ~120 cm), not
  /// a rep of the lift; with no exercise, a squat's bound holds.
  static func maxRomCm(_ exercise: Exercise?) -> Double {
    switch exercise {
    case .benchPress: 65
    case .overheadPress: 85
    case .deadlift: 80
    case .squat, nil: 95
    }
  }

  /// Whether a rise refused as a set's first rep only because it came
  /// down from no stand is the rep before that set's first, now counted:
  /// an eccentric-first lift's round trip has the set's own bottom and top
  /// (`belongs`, both ends), and the set's first rep began its descent
  /// from that top at most `maxStandBetweenRepsS` after the rise locked
  /// out (or as it locked out, within the lockout's own reading window,
  /// `RepMeasurer.lockoutReadS`: a touch-and-go top), the bar staying up
  /// in between (no reading under the middle of the set's range, a reading
  /// in five left out as a stray, `strayShare`: a dirty sonar's noise at
  /// the top and the descent's first readings, which its fitted start can
  /// trail, stay above it; another trip down does not), and started its
  /// drive after that lockout (the turn finder may split one rise twice,
  /// and its rep is not counted twice).
  /// A lifter's stand is hidden as often as the rest of a rep: a sonar
  /// frozen at a value over the stand (a whole-cm clip's repeats, which
  /// are no silence), a spotter's hands or a plate's rim answering for
  /// it. Nothing else travels the set's range up to its top and goes on
  /// into its first rep: an unrack or a walk-out moves the bar a few
  /// centimetres, a bar lifted onto the hooks or to the shoulders comes
  /// from the floor, under any set's bottom.
  static func repBeforeFirst(
    _ candidate: Ends, lockedOutS: Double, first: Ends, descentStartS: Double,
    firstStartS: Double, samples: some Sequence<TimedHeight>
  ) -> Bool {
    guard belongs(candidate, toSet: first, cameDownFirst: false), firstStartS > lockedOutS,
      descentStartS >= lockedOutS - RepMeasurer.lockoutReadS,
      descentStartS - lockedOutS <= maxStandBetweenRepsS
    else { return false }
    let middleCm = first.topCm - first.rangeCm / 2
    var read = 0
    var under = 0
    for s in samples where s.t >= lockedOutS && s.t <= descentStartS {
      read += 1
      if s.cm < middleCm { under += 1 }
    }
    return under <= read / strayShare
  }

  /// The longest a squatter or bencher stands at the top between two reps
  /// of a set: a breath or two, 1–2 s, up to about 3 s in a heavy set.
  /// Longer is a set-up (the walk-out, the feet set, the brace) before a
  /// set's first rep, over which a dirty sonar makes rises of its own. On
  /// the 12,000 independent looked-at streams, of the rises
  /// `repBeforeFirst` counted with no bound (in its first form: the bar
  /// within the same-end tolerance of the top, one rise kept), 60 were
  /// followed by the set within 2.5 s: 58 reps, a dirty raw clip's
  /// unrack, and the set's first rep itself, counted twice (no more: that
  /// rep must start after the rise's lockout); one after 3.15 s was a rep;
  /// the four followed after 3.2–5.9 s were walk-outs read through a
  /// switching sonar.
  static let maxStandBetweenRepsS = 3.0
  /// The most such rises kept in a row, each the rep before the next, for
  /// a set whose start the sonar hid for more than one rep (a frozen or
  /// answered sonar over two stands; blind 7000180). Each holds its
  /// measured readings, so they are bounded by count.
  static let maxRepsBeforeFirst = 4

  /// Whether a rise held at its top is held where the set's reps lock
  /// out: its top within `lockoutShareOfRange` of the set's, its bottom
  /// the set's (`sameEnd`). A rise to another top (a pick-up's, a bar
  /// lifted over the hooks) or from another bottom waits for its top to
  /// settle (`TurnFinder.settleS`).
  static func heldAtTheSetsLockout(_ rise: TurnFinder.Rise, band: Ends) -> Bool {
    abs(rise.peak.cm - band.topCm) <= lockoutShareOfRange * band.rangeCm
      && sameEnd(rise.valley.cm, band.bottomCm, rangeCm: band.rangeCm)
  }
  /// How near the set's top a held top is its lockout: a twentieth of the
  /// range. A sticking region lies before the lockout's position of
  /// mechanical advantage, within the first seven tenths of the range
  /// (`RepMeasurer.stickingRegionShares`, Elliott, Wilson & Kerr 1989), so
  /// a crawl through one holds well below this. Measured sooner, a lockout
  /// is fitted on fewer readings after it: independent looked-at 12,000,
  /// first rep event p90 at 20 Hz over serial 0.47 → 0.39 s, exact sets
  /// 32,359 → 32,367, ROM MAE 0.911 → 0.925 cm; at a tenth, 0.38 s,
  /// 32,367, 0.942 cm.
  static let lockoutShareOfRange = 0.05

  static func sameEnd(_ a: Double, _ b: Double, rangeCm: Double) -> Bool {
    abs(a - b) <= sameEndToleranceCm(rangeCm: rangeCm)
  }

  /// How far apart two ends of a rise of `rangeCm` may be and still be
  /// the same place (`sameEnd`).
  static func sameEndToleranceCm(rangeCm: Double) -> Double {
    max(sameEndMinCm, sameEndShareOfRise * rangeCm)
  }

  /// The eccentric half came first: down from (about) this rise's top, a
  /// full rise's depth, with a bottom pause a lift allows.
  static func cameDownFirst(_ rise: TurnFinder.Rise, concentricStartS: Double, minRiseCm: Double)
    -> Bool
  {
    guard let before = rise.previousPeak else { return false }
    let range = rise.peak.cm - rise.valley.cm
    return sameEnd(before.cm, rise.peak.cm, rangeCm: range)
      && before.cm - rise.valley.cm >= minRiseCm
      && concentricStartS - rise.arrivedAtValleyT <= maxBottomPauseS
  }

  /// The bar came back to the rise's bottom after a lockout, no longer
  /// than `maxLockoutHoldS` after it, and came down from that top, not from
  /// somewhere higher (a bar picked up to the hips, cleaned to the
  /// shoulders and put back on the floor went back to where it rose from,
  /// but not from the lockout of that rise). A lockout either stood (a
  /// deadlift or press shown locked out) or was a lift's turn: a drive of
  /// at least `minUnheldDriveS` lowered under control
  /// (`minControlledLoweringS`). Lifters doing presses for reps turn at the
  /// top without a pause, as every press in the real recordings does; on
  /// the sensor's own clock those tops held still for less than
  /// `TurnFinder.stillS`, and a set of eight was found as four. The hump
  /// of a handled clip neither stands nor rises and falls like a lift.
  /// A deadlift's bottom is the floor, and no bar goes under it: a bottom
  /// read under it, where the readings around it (`floorRestCm`, their
  /// median over `minStandBeforeSetS` either side: a run of five echoes
  /// fills half a window 0.25 s each side, looked-at 100027) rest at the
  /// rep's bottom, is the floor's echoes (the plates', the feet's), and
  /// the bar is back (independent looked-at 20107: a dead-stop set's
  /// first pull, lowered onto a floor read at 4 cm among its 22, was
  /// withdrawn as a one-way move). Readings that rest lower
  /// are the bar put down lower than it rose from: a "pull" from a turn
  /// part-way down, among a burst of garbage, and the floor under it
  /// (tune held-out session-mess 5323).
  static func cameBackDown(
    _ ends: Ends, to bottomCm: Double, fromCm: Double?, stoodAtTop: Bool, heldTopS: Double,
    droveS: Double, loweredS: Double, floorRestCm: Double? = nil, silentS: Double = 0
  ) -> Bool {
    guard let fromCm, sameEnd(fromCm, ends.topCm, rangeCm: ends.rangeCm),
      silentS <= maxSilentReturnS
    else { return false }
    let turned = droveS >= minUnheldDriveS && loweredS >= minControlledLoweringS
    let back =
      sameEnd(bottomCm, ends.bottomCm, rangeCm: ends.rangeCm)
      || (bottomCm < ends.bottomCm
        && floorRestCm.map { sameEnd($0, ends.bottomCm, rangeCm: ends.rangeCm) } == true)
    return back && (stoodAtTop || turned) && heldTopS <= maxLockoutHoldS
  }
  /// The bar is seen coming back: no silence of the kept readings on the
  /// way from the top to the bottom longer than the smoother bridges
  /// (`Analyzer.maxBridgeS`). A loaded bar is lowered in 1–2 s; a sonar
  /// silent longer than this across it heard nothing of the way down, and
  /// what it read after the silence may be no bar: a pick-up from the
  /// floor held through a carry, the clip then taken off and laid down
  /// for 12 s of no-echo, came "back" to the floor when the clip read 3 cm
  /// (independent 580086); a clip handled at the start of a recording,
  /// silent 1.5–2 s, "pressed" 14 cm (610019). Both sets of one; 6,540
  /// looked-at independent streams otherwise unchanged, ours unchanged.
  /// At 0.5 s, ten deadlift sets lost their first pull (dead-stop and
  /// heavy, dirty and typical: the lowering read across no-echo runs); at
  /// 2 s, 610019 passed again.
  static let maxSilentReturnS = 1.0
  /// A press or a pull is driven over 40–70 cm at a mean of at most about
  /// 1 m/s outside warm-ups, so for 0.4 s or more; a hand swinging the
  /// clip, or a clip handled at the start of a recording, rises in 0.1–0.4 s.
  static let minUnheldDriveS = 0.4
  /// A loaded bar is lowered, not dropped: lifters lower a press in about
  /// 1–2 s (self-selected eccentric tempo), and the time is read between
  /// the smoothed top and bottom, which holds the turns' slow ends too. A
  /// handled clip's hump falls in 0.1–0.4 s, plus the smoothing's spread
  /// (a 0.2 s window). A press lowered faster than this from a lockout it
  /// did not hold is not confirmed by its return, as before this rule.
  static let minControlledLoweringS = 0.6

  /// A set's first descent starts from a stand: the lifter unracked or
  /// walked out, set the feet and braced before it. Bracing is a held
  /// breath (the Valsalva manoeuvre lifters use under a loaded bar takes
  /// an inhalation, about a second); half of that is the least a lifter
  /// stands. A clip in someone's hand swings from hump to hump without
  /// standing that long.
  static let minStandBeforeSetS = 0.5
  /// Readings at a provisional rep's bottom, before one at its top again,
  /// that say the sonar switched between two targets after the lockout
  /// (`Analyzer`'s `switchedAfterLockout`): one may be a stray echo the
  /// despiker let by.
  static let minReturnReadingsAtBottom = 2

  /// A set's first descent is a loaded bar lowered under control, and
  /// seen to be. We take half a second as the fastest a lifter lowers one
  /// into a set's first rep (the quick descents of speed work;
  /// self-selected eccentrics take 1–2 s), and the 20–80 % transit it is
  /// timed by (`RepMeasurer.transit` at the crossings, scaled to the whole
  /// move) reads a smooth half-second descent as 0.34 s. The hump of a
  /// clip in a hand falls in 0.1–0.4 s and reads 0.07–0.27 s; at the
  /// readings' own times, as first built, a 0.35 s hump at 20 Hz read
  /// 0.33 s (tune seeds 201–600, timed at the crossings: reports that were
  /// no set 13 → 8, reps invented 45 → 24, none missed). Tune seeds 201–600:
  /// reports that were no set 33 → 20 (clip-handling 21 → 8), reps
  /// invented 95 → 55, none missed and no other scenario changed; 0.4 s
  /// gave 13 and still missed none, 0.5 s missed 59 reps: 0.4 s sits at
  /// the edge of our own simulator's quickest eccentric (0.8 s), and a
  /// faster lifter's first rep, with the set it starts, would be lost to it.
  static let minFirstLoweringS = 0.3
  /// A bar lowered passes through the middle of its descent in view of
  /// the sonar: at 15 Hz a half-second descent leaves about three readings
  /// between 20 % and 80 % of the way. A descent with none there that the
  /// despiker kept jumped from the top to the bottom or went through
  /// garbage: a burst of wrong readings in a rest (the sonar reads 284,
  /// 20, 15 and a stuck 62 cm under a bar at 134, and is back) makes a
  /// "squat" of just that shape. Not asked where a stuck run hid the
  /// middle, nor across a silence. Tune seeds 201–600: reports that were
  /// no set 20 → 13 (sensor-faults 5 → 2, rack-session, soft-floor,
  /// warm-up, continuous-sets 1 → 0 each), and 6 first reps missed, each
  /// a real descent whose readings a sensor fault took (garbage over it,
  /// or a stuck run whose end the despiker took for a jump); asking for 2
  /// readings gave 12 and missed 8.
  static let minDescentReadingsSeen = 1

  /// Whether the readings up to `t` show a descent from `topCm` to
  /// `valleyCm` done: the last one in its lowest fifth
  /// (`RepMeasurer.seenRampShare`), and the last `minReadingsToJudgeStand`
  /// no longer falling (by `fallingSigmas` of their noise). A sonar silent
  /// from a descent's middle on may hide where the bar went (lower, for
  /// longer): a first rep's bottom lost in a dropout (tune continuous-sets
  /// 387, floor-to-rack 626), a squat's whole descent under garbage and
  /// silences (sensor-faults 621). One that fell silent after the bar was
  /// read standing at the bottom hides nothing of the way down: a carried
  /// bar read at 78 cm, then an echo run off the carrier's legs at 58.5
  /// for 0.15 s and a silence, was a "descent" in one period taken for a
  /// lifter's, and a bench press's first rep of 17 cm in the carry
  /// (independent looked-at 60066; 40066 likewise).
  static func downBefore(
    _ t: Double, _ readings: [TimedHeight], from topCm: Double, to valleyCm: Double,
    noiseCm: Double
  ) -> Bool {
    guard let last = readings.lastIndex(where: { $0.t <= t }),
      readings[last].cm <= valleyCm + RepMeasurer.seenRampShare * (topCm - valleyCm),
      last - readings.startIndex + 1 >= minReadingsToJudgeStand
    else { return false }
    let first = last - (minReadingsToJudgeStand - 1)
    return readings[first].cm - readings[last].cm
      <= fallingSigmas * max(noiseCm, TurnaroundFit.minNoiseCm)
  }
  /// Two readings' difference has √2 of one's noise; three of those
  /// deviations are more than a bar at rest shows (a bar lowered at 0.3
  /// m/s falls 3 cm over two periods at 20 Hz).
  static let fallingSigmas = 3 * 2.0.squareRoot()

  /// A set's first descent as the readings showed it.
  enum Descent: Equatable, Sendable {
    /// Its 20–80 % transit, scaled to the whole move, in seconds.
    case timed(Double)
    /// No reading kept between 20 % and 80 % of the way.
    case unseen
  }

  /// A descent not judged (nil: the sonar silent or stuck through it) is
  /// taken as a lifter's. The stand is the turn finder's, at the top the
  /// descent came from, or one the readings show right before the descent
  /// began (`stood(_:before:atCm:rangeCm:noiseCm:)` at the measurer's
  /// eccentric start): a bar unracked higher than the stance it is then
  /// walked out or stepped down to is past its turn-finder top once it
  /// stands, and on a noisy floor the stand at that top is cut short by
  /// the noise (independent looked-at 40047, 40118, 60000: squats' first
  /// reps lost after 0.0–0.45 s "stands"). Tune seeds 201–600: reps missed
  /// 224 → 218, none invented; our held-out seeds 5040–5399: 90 → 88;
  /// independent looked-at (six sets, 660 streams): missed 68 → 64, none invented.
  static func cameDownFromStand(
    _ rise: TurnFinder.Rise, cameDownFirst: Bool, descent: Descent?, stoodBeforeDescent: Bool
  )
    -> Bool
  {
    guard cameDownFirst, rise.previousPeakStoodS >= minStandBeforeSetS || stoodBeforeDescent
    else { return false }
    switch descent {
    case nil: return true
    case .unseen: return false
    case .timed(let s): return s >= minFirstLoweringS
    }
  }

  /// Whether a set's first rep is far shorter than every set of the
  /// session so far (under `minShareOfSessionRom` of the shortest one's
  /// median ROM): a lifter's sets of one exercise keep their range (grip
  /// and stance are set once), and a new set's first rep at half or two
  /// thirds of it is a bar bumped or a sonar's echo run in the rest (a
  /// bench press parked on the hooks dipping 15–20 cm over a noisy floor,
  /// independent looked-at 20080, 60018). Such a first rep, of any lift
  /// or none named, is told provisionally, and only the set's second rep
  /// confirms it. Looked-at 1–6 (squat, bench press, none named): reports
  /// that were no set 14 → 10, invented 30 → 26; ours held-out 16 → 15;
  /// tune unchanged. Presses and deadlifts too: over a mat a press's rest
  /// read 22–34-cm "sets" of one against a session of 50–60 cm (fresh
  /// independent streams 200000–259999, 1,440: reports that were no set
  /// 8 → 4, invented 47 → 43, none missed more; the fifth held-out set's
  /// one such report gone). What it costs: a press's first rep measured
  /// at 19 cm behind a stuck sonar waits for a second like it, and is
  /// lost (tune clean-and-press 521, a rep of 56 cm that was counted at
  /// 19).
  ///
  /// The share is 0.65, not a half: sets of one exercise keep their range
  /// within about a tenth (grip and stance), so two thirds leaves room for
  /// a shallower set while a dip of 19 cm in the rest of a 34-cm bench
  /// session (looked-at 20080, 0.56 of it) is no set of its own. Looked-at
  /// 1,020: no set 6 → 5, invented 33 → 32; tune, ours held-out, sweep,
  /// SampleStreams and the real presses unchanged. Only a lone short rep is
  /// at stake: a second like it still confirms the set.
  static func shortForTheSession(romCm: Double, shortestSetRomCm: Double?) -> Bool {
    shortestSetRomCm.map { romCm < minShareOfSessionRom * $0 } ?? false
  }
  static let minShareOfSessionRom = 0.65
  /// Reps of its own after which a set is no false start (a set of one
  /// may itself have begun on a move that looked like a rep).
  static let establishedSetReps = 2

  /// Whether the rep was seen driven up: a concentric phase is a drive,
  /// the bar sped up out of the bottom and slowed into the lockout, so its
  /// velocity peaks inside the phase and above its mean. A rise whose
  /// velocity curve was highest at or after its lockout, and nowhere
  /// above the mean (`RepMeasurer`'s reported peak is floored at the
  /// mean), was read at its ends only: the step from a carrier's legs back
  /// up to a carried bench bar (independent looked-at 720042, 260106:
  /// sets of one named bench press before the bar reached the hooks).
  /// Such a first rep of a squat or bench press is not final at its top:
  /// only a second rep like it proves it (a dirty speed squat's first rep
  /// of three read so, 540025, and its second confirmed it). Looked-at
  /// 12,540: reports that were no set 10 → 8, two reps fewer invented,
  /// none lost; ours and the fourteen held-out sets unchanged.
  static func seenDriven(_ rep: RepReport) -> Bool {
    rep.peakVelocityMps > rep.meanVelocityMps
      || rep.timeToPeakVelocityS < rep.concentricEndS - rep.concentricStartS
  }

  /// Whether a first rep may be final at its top: only eccentric-first
  /// lifts show a whole round trip by then (from a stand); and any lift
  /// whose descent began at the top of a rep already counted (a set ended
  /// by command, and the lifter goes on).
  static func finalAtTop(
    exercise: Exercise?, cameDownFromStand: Bool, cameDownFromCountedTop: Bool
  ) -> Bool {
    (exercise?.isEccentricFirst == true && cameDownFromStand) || cameDownFromCountedTop
  }

  /// Whether the next rep of the same band proves a provisional first rep:
  /// only if that rep had the shape of one. A concentric-first lift is
  /// locked out and shown still before it is lowered; a rise that turned
  /// at its top without standing (a clip swung in a hand, a bar bounced)
  /// was no lockout, however many like it follow. A rise that came down
  /// first is an eccentric-first round trip already (unknown exercise).
  static func mayConfirmByNextRep(exercise: Exercise?, stoodAtTop: Bool, cameDownFirst: Bool)
    -> Bool
  {
    stoodAtTop || (cameDownFirst && exercise?.isEccentricFirst != false)
  }

  /// Whether a rise may be a set's first rep at all. An eccentric-first
  /// lift's first rep comes down first from a stand, always. A press's
  /// first rep starts from rest at its bottom, for the same reason: the
  /// lifter holds the bar in the front rack, sets the grip and braces
  /// before the first press (`minStandBeforeSetS`); a bar driven up out of
  /// a dip with no rest before it (a clean from the hang, a re-grip's dip
  /// and drive, a swung clip) is no set's first rep. A deadlift's bottom
  /// is the floor: nothing drives a bar up off it but a pull, and the bar
  /// is rolled to the shins, jacked for plates and has its slack pulled
  /// right up to the first rep, so no stand is asked of it.
  static func mayStartSet(exercise: Exercise?, cameDownFromStand: Bool, stoodAtBottom: Bool)
    -> Bool
  {
    if cameDownFromStand { return true }
    switch exercise {
    case .squat, .benchPress: return false
    case .deadlift: return true
    case .overheadPress, nil: return stoodAtBottom
    }
  }

  /// Whether the bar rested (stayed within `sameEndMinCm`, or
  /// `standSigmas` of the readings' noise if that is more) for the
  /// `minStandBeforeSetS` before `startS`. A reading in five may stray (the
  /// sonar's noise); a gap in the readings proves nothing either way, but
  /// the time before the first reading does not show a stand: a rise
  /// sooner than `minStandBeforeSetS` after the stream began (or after a
  /// silence longer than the analyzer's buffer) starts no set. A clip
  /// clipped on and handled in the stream's first second made a 25-cm
  /// "rep" from 0.37 s (independent looked-at 40104; 100189 likewise).
  /// Independent looked-at seeds (six sets): reports that were no set
  /// 6 → 5; 100000–: 3 → 2; tune seeds 201–600, our held-out seeds, the
  /// SampleStreams, the real presses and the other independent sets
  /// unchanged.
  /// Judged on the readings, not on the rise's valley: a rise split where
  /// the bar was parked (on the hooks) starts its count from the park, a
  /// few centimetres below where the lifter then stood with it.
  ///
  /// Given the rise's `ends`, a stand read through echoes counts too
  /// (`stoodOverEchoes`).
  static func stoodAtBottom<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, startS: Double, noiseCm: Double, ends: Ends? = nil
  )
    -> Bool
  {
    guard seenBeforeRise(samples, startS: startS) else { return false }
    var window = standWindow(samples, endingAt: startS)
    guard window.count >= minReadingsToJudgeStand else { return true }
    if stood(&window, noiseCm: noiseCm) != nil { return true }
    guard let ends else { return false }
    return stoodOverEchoes(samples, startS: startS, noiseCm: noiseCm, ends: ends)
  }

  /// Whether the bar stood at the rise's bottom while the sonar, past the
  /// plates or at the feet, read something nearer in runs of a few
  /// readings: a loaded bar on the floor (or held at the shoulders) goes
  /// nowhere below its rest between readings, so readings well under it
  /// that the bar is read above again (or at its level after the rise's
  /// fitted start, `readAtLevel`), or that it jumped to from its
  /// level faster than any bar moves (`StuckReadings.reach`, and twice the
  /// stand's own tolerance), are echoes, not a stand broken. Up to
  /// `maxEchoShareUnderStand` of the readings may be such echoes, and what
  /// is left must stand as any stand and lie in the rise's lower
  /// `echoedStandShareOfRise` (echoes under it pull the rise's valley
  /// down). Pulls off a floor read 20.6 21.8 2.3 2.7 17.6 20.1, or 21.3
  /// then 2.9 2.8 3.0 2.8 up to the pull, were no set's first rep where
  /// no exercise was named (independent fresh 220148, 210116, 230133,
  /// 250076), nor were presses from a front rack read 134 125 130 140 or
  /// with a no-echo 0 (fresh 210083, 200014, 210106; looked-at 30082,
  /// 40067).
  /// Not a stand: a dip before a drive, read going down step by step (a
  /// clean's at the hang: our tune clean-and-press 498); readings a stuck
  /// sonar repeated over such a dip, judged without their repeats, across
  /// the time they hid (continuous-sets 553); a bar on the hooks over a
  /// sonar switching to a target 17 cm under it, its "rise" from there no
  /// rise from the stand (looked-at 20118, a "set" of two in a rest).
  /// Independent fresh 1,440: missed 116 → 105 (exact 97.2 → 97.5 %);
  /// looked-at 1,020: 65 → 63; our tune 201–600 148 → 144, 601–1000
  /// 190 → 183, held-out 35 → 32; nothing invented, no report that was no
  /// set, in any of them (one set already wrong, fresh 240153, lost its
  /// second rep). Read at the level after the fitted start too: 12,540
  /// looked-at, missed 885 → 869, nothing invented; ours held-out missed
  /// 26 → 25, tune unchanged; thirteen held-out sets missed 101 → 100.
  private static func stoodOverEchoes<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, startS: Double, noiseCm: Double, ends: Ends
  ) -> Bool {
    let window = StuckReadings.removed(
      from: standReadings(samples, endingAt: startS), noiseCm: noiseCm)
    guard window.count >= minReadingsToJudgeStand else { return false }
    let sorted = window.map(\.cm).sorted()
    let tolerance = standToleranceCm(noiseCm: noiseCm)
    let levelLow = sorted[sorted.count - 1 - sorted.count / strayShare] - tolerance
    guard let firstEcho = window.firstIndex(where: { $0.cm < levelLow }) else { return false }
    let readAgain =
      window[(firstEcho + 1)...].contains { $0.cm >= levelLow }
      || readAtLevel(
        samples, after: startS, from: levelLow, to: levelLow + 2 * tolerance, noiseCm: noiseCm)
    let jumped =
      firstEcho > 0 && window[firstEcho - 1].cm >= levelLow
      && window[firstEcho - 1].cm - window[firstEcho].cm
        > max(
          2 * tolerance,
          StuckReadings.reach(after: window[firstEcho].t - window[firstEcho - 1].t))
    var standing = sorted.filter { $0 >= levelLow }
    guard readAgain || jumped,
      Double(standing.count) >= (1 - maxEchoShareUnderStand) * Double(window.count),
      let level = stood(&standing, noiseCm: noiseCm)
    else { return false }
    return level - ends.bottomCm <= max(sameEndMinCm, echoedStandShareOfRise * ends.rangeCm)
  }

  /// Whether the bar was read at a level again after `t`, before it left
  /// it: the readings from the first after `t` not under `low` up to the
  /// first over `high` (the echoes under the level skipped) stand, for at
  /// least `TurnFinder.stillS`, the time the turn finder takes to call a
  /// bar held. A rep's start fitted among echoes under a bar on the floor
  /// has the rest of the stand after it: a pull read 19 19 18, then 8 7 7
  /// 7 off the feet, then 19 20 19 for 0.3 s before it left the floor was
  /// no set's first rep (independent looked-at 1280085, 1200115, and
  /// 13 streams more of 12,540). Not a ramp crossing the level (a drive out of a clean's
  /// dip, 0.5 m/s and more, crosses `sameEndMinCm` in 0.1 s).
  private static func readAtLevel<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, after t: Double, from low: Double, to high: Double, noiseCm: Double
  ) -> Bool {
    var after: [TimedHeight] = []
    for s in samples.reversed() {
      if s.t <= t { break }
      after.append(s)
    }
    var level: [TimedHeight] = []
    for s in after.reversed() where s.cm >= low {
      if s.cm > high { break }
      level.append(s)
    }
    guard level.count >= minReadingsToJudgeStand, let first = level.first, let last = level.last,
      last.t - first.t >= TurnFinder.stillS
    else { return false }
    var cms = level.map(\.cm)
    return stood(&cms, noiseCm: noiseCm) != nil
  }

  /// At most this share of a stand's readings may be echoes: dirty floors
  /// read 2 to 5 in 12–15 under the bar in the half second before a pull
  /// (fresh 220148, 210116); more than that and what is left is too
  /// little to call a stand.
  static let maxEchoShareUnderStand = 0.4
  /// The stand under echoes lies in the rise's lower third: the echoes
  /// pull a rise's valley up to 18 cm under a bar resting at 21 before a
  /// 57-cm pull (fresh 210116: 2.8), and a stand any higher was not at
  /// the bottom of the rise but at a switching sonar's other end.
  static let echoedStandShareOfRise = 1.0 / 3

  /// Whether the readings reach back `minStandBeforeSetS` before a rise
  /// began: a rise the stream (or the analyzer's buffer, after a silence
  /// longer than it) began in came out of something unseen, and starts no
  /// set whatever the lift, a deadlift's pull off the floor included. A
  /// clip clipped on and swung up in a hand in a deadlift stream's first
  /// 0.14 s was a "set" of one 29-cm pull at 0.18 m/s, its tilt (18°) just
  /// within `maxClipTiltDeg` (independent fresh 240115).
  static func seenBeforeRise<C: Collection<TimedHeight>>(_ samples: C, startS: Double) -> Bool {
    samples.first.map { $0.t <= startS - minStandBeforeSetS } ?? false
  }

  /// The sonar reads the nearest thing under the clip: the floor at most,
  /// and an echo off a plate, a leg or a bench nearer, never farther. A
  /// bar at the bottom of its rep is never read at its top; where the
  /// pause before a first rep's drive reads the top's level and then the
  /// bottom's again, the bottom is a nearer target's echoes under a bar
  /// that stayed at the top: a switching sonar, not a rep. This many such
  /// readings, each a change from the one before (a frozen sonar repeats
  /// one), and one is a stray.
  static let minTopReadingsInPause = 2

  /// Whether the readings sent in a first rep's pause (from the bar's
  /// arrival at the bottom to its drive) read the rise's top, at the same
  /// end, before a reading at its bottom (`minTopReadingsInPause`). A
  /// bench bar on the hooks over a sonar switching between 88 cm, 65 and
  /// no echo: a 23-cm "rep" of 0.75 m/s in the rest, its "pause" 2.3 s of
  /// both levels, a set of one (independent looked-at 1930061). Readings
  /// at the top after the last at the bottom are the drive's own, read
  /// before a late-measured start (a frozen sonar's: our held-out
  /// speed-work 5021). 12,000 looked-at: reports that were no set 5 → 4,
  /// invented 120 → 118, nothing lost; ours unchanged; held-out 3,960: no
  /// set 2 → 1, invented 38 → 36, one rep measured late lost (missed 209
  /// → 210).
  static func readAtTopInPause<C: BidirectionalCollection<TimedHeight>>(_ pause: C, ends: Ends)
    -> Bool
  {
    let tolerance = sameEndToleranceCm(rangeCm: ends.rangeCm)
    guard let lastAtBottom = pause.last(where: { $0.cm <= ends.bottomCm + tolerance })?.t
    else { return false }
    var atTop = 0
    var previous: Double? = nil
    for r in pause where r.t < lastAtBottom {
      if r.cm != previous, sameEnd(r.cm, ends.topCm, rangeCm: ends.rangeCm) { atTop += 1 }
      previous = r.cm
    }
    return atTop >= minTopReadingsInPause
  }

  /// The heights of the readings of the `minStandBeforeSetS` up to `t`.
  private static func standWindow<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, endingAt t: Double
  ) -> [Double] {
    standReadings(samples, endingAt: t).map(\.cm)
  }

  /// The readings of the `minStandBeforeSetS` up to `t`, oldest first.
  private static func standReadings<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, endingAt t: Double
  ) -> [TimedHeight] {
    var window: [TimedHeight] = []
    for s in samples.reversed() {
      if s.t > t { continue }
      if s.t < t - minStandBeforeSetS { break }
      window.append(s)
    }
    return window.reversed()
  }

  /// The level the bar stood at over the `minStandBeforeSetS` up to `t`,
  /// judged on at least `minReadingsToJudgeStand` readings, or nil.
  static func standLevel<C: BidirectionalCollection<TimedHeight>>(
    _ samples: C, endingAt t: Double, noiseCm: Double
  ) -> Double? {
    var window = standWindow(samples, endingAt: t)
    guard window.count >= minReadingsToJudgeStand else { return nil }
    return stood(&window, noiseCm: noiseCm)
  }

  /// The level the bar stood at over `window` (readings of
  /// `minStandBeforeSetS`, sorted here), or nil if it moved. The strays
  /// (`strayShare`) are whichever readings, lowest or highest, leave the
  /// narrowest spread: the noise strays either way. Split half and half
  /// as first built, a single stray could only be a high one, and a front
  /// rack read 132 134 130 132 133 132 134 128 (1.3 cm of noise) stood
  /// for no press (independent looked-at 410003, 380111, 380039: each
  /// set's first press lost). Looked-at 4,140 streams: missed 291 → 277,
  /// invented 58 → 60, one report more that was no set (400043: an
  /// overhead press unracked 14 cm in 2.1 s after a clip was handled);
  /// ours tune 201–1000 missed 315 → 297, held-out 29 → 26 (invented
  /// 16 → 18 and 15 → 17, reports that were no set 5 → 6 and 8 → 9); nine
  /// independent held-out sets missed 61 → 53, nothing else moved.
  private static func stood(_ window: inout [Double], noiseCm: Double) -> Double? {
    window.sort()
    let strays = window.count / strayShare
    var spread = Double.infinity
    for low in 0...strays {
      let high = window.count - 1 - (strays - low)
      spread = min(spread, window[high] - window[low])
    }
    guard spread <= standToleranceCm(noiseCm: noiseCm) else { return nil }
    return window[window.count / 2]
  }

  /// A deadlift's rise measured from where the bar last lay. The floor
  /// holds a loaded bar up: readings well below the level it lay at
  /// (beyond `sameEnd`, in the rise's lower half) were not the bar's (a
  /// clip taken off the sleeve and swung near the floor reads 2–6 cm under
  /// a bar lying at 25; a burst of echoes off the plates or the feet reads
  /// 4–13), and where the readings then rest at that level again (within
  /// half `sameEndMinCm`, for the turn finder's `stillS`), the bar, if it
  /// rose at all, rose from there: the rise's valley is moved to the last
  /// such rest, and the rise judged as what it was (a clip's hump, a pull).
  /// Tune seeds 201–600: reports that were no set 8 → 5 (clip-handling
  /// 3 → 0), reps invented 24 → 20, none missed, nothing else changed; the
  /// same without the rest (any rise from below the floor refused) missed
  /// 9 first pulls after echo bursts.
  static func anchoredAtRest(_ rise: TurnFinder.Rise, samples: [TimedHeight], noiseCm: Double)
    -> TurnFinder.Rise
  {
    guard let level = lastStand(samples, before: rise.valley.t, noiseCm: noiseCm) else {
      return rise
    }
    let range = rise.peak.cm - rise.valley.cm
    let below = level - rise.valley.cm
    guard below > sameEndToleranceCm(rangeCm: range), below <= range / 2 else {
      return rise
    }
    var run: (first: TimedHeight, count: Int)? = nil
    var rest: (first: TimedHeight, last: TimedHeight)? = nil
    for s in samples where s.t > rise.valley.t && s.t < rise.peak.t {
      guard abs(s.cm - level) <= sameEndMinCm / 2 else {
        run = nil
        continue
      }
      let first = run?.first ?? s
      run = (first, (run?.count ?? 0) + 1)
      if let run, run.count >= minReadingsToJudgeStand, s.t - first.t >= TurnFinder.stillS {
        rest = (first, s)
      }
    }
    guard let rest else { return rise }
    var anchored = rise
    anchored.valley = TimedHeight(t: rest.last.t, cm: level)
    anchored.arrivedAtValleyT = rest.first.t
    return anchored
  }

  /// Whether the bar stood at about `cm` (`sameEnd` over `rangeCm`) for the
  /// `minStandBeforeSetS` before `t`, judged on at least
  /// `minReadingsToJudgeStand` readings.
  static func stood(
    _ samples: [TimedHeight], before t: Double, atCm cm: Double, rangeCm: Double, noiseCm: Double
  ) -> Bool {
    guard let level = standLevel(samples, endingAt: t, noiseCm: noiseCm) else { return false }
    return sameEnd(level, cm, rangeCm: rangeCm)
  }

  /// The floor under a deadlift and the lowest reading that can be the bar
  /// on it. A loaded bar lies on its plates, and nothing takes it lower:
  /// the readings well below (the sonar's echoes off the plates and the
  /// feet, in runs of 3–5 readings at the bottom of touch-and-go pulls,
  /// 4–14 cm under a bar at 20) were not the bar's, and a rep's range and
  /// start measured from them read 10–20 cm long (over `maxRomCm`: no rep).
  /// The floor is the set's bottom (`SetTracker.band`, the median of its
  /// latest reps), else the level the bar last lay at before it left the
  /// lowest fifth of the rise (`RepMeasurer.seenRampShare`), if that is in
  /// the rise's lower half (a bar jacked up for plates lies higher, and
  /// earlier). Below it by `floorMarginSigmas` of the readings' noise,
  /// `sameEndMinCm` at least, a reading is no bar's.
  /// Tune seeds 201–600: reps missed 243 → 235; independent looked-at
  /// seeds (six sets of 60–120): reps missed 79 → 76, invented 35 → 36,
  /// ROM MAE on the three with the most dirty pulls 1.15 → 1.08, 1.11 →
  /// 1.05, 1.29 → 1.23 cm. At 3 σ and 4 σ: 78 and 79 missed.
  static func floorCm(
    under rise: TurnFinder.Rise, inSet band: Ends?, samples: [TimedHeight], noiseCm: Double
  ) -> (levelCm: Double, lowestCm: Double)? {
    let range = rise.peak.cm - rise.valley.cm
    let leftBottomT =
      samples.last {
        $0.t < rise.peak.t && $0.cm <= rise.valley.cm + RepMeasurer.seenRampShare * range
      }?.t ?? rise.valley.t
    guard
      let level = band?.bottomCm
        ?? lastStand(samples, before: leftBottomT, noiseCm: noiseCm).flatMap({
          $0 - rise.valley.cm <= range / 2 ? $0 : nil
        })
    else { return nil }
    return (level, level - max(sameEndMinCm, floorMarginSigmas * noiseCm))
  }
  /// How far under the bar's bottom, in the readings' noise deviations, a
  /// reading may still be the bar (`floorCm`, `BottomEchoes`): measured
  /// against 3 and 4 σ, above.
  static let floorMarginSigmas = 2.0
  /// How far before the last stand `lastStand` looks for a higher one: two
  /// of its windows, past a run of echoes (`BottomEchoes.maxRunS`) and the
  /// readings around it.
  static let floorLookbackS = 1.0

  /// The level of the bar's last stand (`minStandBeforeSetS`) before `t`:
  /// of the stands found from the last one back `floorLookbackS`, the
  /// highest. The sonar's echoes off the plates and the feet read under a
  /// bar on the floor, never over it, and over a noisy floor a run of them
  /// stood in a window of its own: a deadlift's floor at 21 cm (σ 3 cm)
  /// read as 4, from five echoes and a few readings of the floor; the set's
  /// bottom was then the echoes', and its sixth pull, measured from them,
  /// was over `maxRomCm` (independent looked-at 60056). Independent
  /// looked-at seeds (six sets, 660 streams): reps missed 62 → 60 (60056,
  /// 20060), nothing else moved; new sets 90000– and 100000–: 0 and 1 rep
  /// fewer missed; tune seeds 201–600, our held-out seeds 5040–5399 and
  /// the old independent held-out set unchanged; the fresh independent
  /// held-out set one rep more missed (which, not looked at).
  /// The readings are in time order; each window ends at a reading and
  /// reaches back `minStandBeforeSetS`.
  private static func lastStand(_ samples: [TimedHeight], before t: Double, noiseCm: Double)
    -> Double?
  {
    guard let last = samples.lastIndex(where: { $0.t <= t }) else { return nil }
    var window: [Double] = []
    var found: (t: Double, cm: Double)? = nil
    // One before the window's oldest reading.
    var beyond = last
    for newest in stride(from: last, through: 0, by: -1) {
      if let found, samples[newest].t < found.t - floorLookbackS { break }
      while beyond >= 0, samples[newest].t - samples[beyond].t <= minStandBeforeSetS {
        beyond -= 1
      }
      // Only whole windows: the oldest readings kept cannot show a stand.
      guard beyond >= 0 else { break }
      guard newest - beyond >= minReadingsToJudgeStand else { continue }
      window.removeAll(keepingCapacity: true)
      for s in samples[(beyond + 1)...newest] { window.append(s.cm) }
      if let level = stood(&window, noiseCm: noiseCm) {
        found = (found?.t ?? samples[newest].t, max(found?.cm ?? level, level))
      }
    }
    return found?.cm
  }
  /// The readings of a bar at rest, the fifth that strays left out, span
  /// about ±1.3 σ of the sonar's noise (`SonarNoise`): 4 σ leaves margin
  /// for a bar that settles as it is gripped.
  static let standSigmas = 4.0
  /// How far a standing bar's readings may spread: `sameEndMinCm`, or
  /// `standSigmas` of the readings' noise if that is more.
  static func standToleranceCm(noiseCm: Double) -> Double {
    max(sameEndMinCm, standSigmas * noiseCm)
  }
  /// At least this many readings to judge a stand (three at 15 Hz in 0.2 s).
  static let minReadingsToJudgeStand = 3
  /// One reading in this many may stray from the stand, either way.
  static let strayShare = 5

  /// The most a clip on a lifted bar tilts, either way (its largest
  /// |pitch| and |roll| over the concentric phase, `AttitudeLog`). The
  /// sonar reads the bar's height only while it points at the floor, and
  /// a loaded bar is never lifted that crooked: 20° along the bar puts its
  /// end 38 cm below its middle (a 2.2 m bar), and about the bar's axis it
  /// is a grip rolled a quarter of the way to the wrist's limit with the
  /// sonar reading 6 % long (1 / cos 20°). A clip handled, clipped on or
  /// swung in a hand turns 10–40°.
  static let maxClipTiltDeg = 20.0
  /// Whether a rise may be a set's first rep by its tilt: the clip stayed
  /// within `maxClipTiltDeg` (or no `a:` lines came to say otherwise),
  /// over the concentric phase and, for a rise that came down first, over
  /// the descent (`Analyzer`): no loaded bar is lowered that crooked
  /// either; for the same reason over the return that confirms a
  /// provisional first rep (`Analyzer`'s `loweredOnTheBar`). Tune seeds 201–600: clip-handling 92.5 → 93.8 % exact, its
  /// reports that were no set 22 → 17; no other scenario changed. Not for
  /// a concentric-first rise: what comes before it is the bar set down and
  /// loaded, which tilts it (deadlift-platform fell to 63 %).
  /// Asked of the first rep only: within a set, one lifter's rep is not
  /// refused for what a burst of bad IMU lines did to its mean (there,
  /// `clipStayedOnTheBar` asks for most of the concentric phase).
  static func clipOnTheBar(pitchDeg: Double?, rollDeg: Double?) -> Bool {
    (pitchDeg ?? 0) <= maxClipTiltDeg && (rollDeg ?? 0) <= maxClipTiltDeg
  }
  /// Within a set, a rise is the clip handled, not a rep, when most of its
  /// concentric phase's `a:` readings were beyond `maxClipTiltDeg`: a clip
  /// taken off the bar at the end of a set turned 40–110° while the
  /// lifter's hand lifted it (independent looked-at 20068, 20108: invented
  /// reps in typical noise 6 → 4 of 120 streams; tune 201–600 unchanged).
  /// A share, not the maximum: a burst of bad IMU lines in a rep is a few.
  static let maxTiltedShare = 0.5
  static func clipStayedOnTheBar(tiltedShare: Double?) -> Bool {
    (tiltedShare ?? 0) <= maxTiltedShare
  }
  /// Whether an unconfirmed first rep that did not come back down may still
  /// be one: only if it came down first and the lift may start that way.
  static func mayBeRoundTripWithoutReturn(exercise: Exercise?, cameDownFirst: Bool) -> Bool {
    cameDownFirst && exercise == nil
  }

  /// A rise from the set's bottom, down from the set's top, that stopped
  /// well short of it (beyond `sameEnd`): the set's failed rep, not
  /// another lift, so it cannot start a set with the rise after it. A
  /// bench press failed at 83 cm of its 68–102, and the spotter's rise
  /// stalled at 84 before going on: a new set of two 15-cm "reps"
  /// (independent looked-at 60113). Looked-at 40000–70119: reports that
  /// were no set 12 → 10, invented reps 30 → 28 (60113's spotter's rise
  /// to the top now counts in the failed rep's set instead); the other
  /// sets and tune 201–600 unchanged.
  static func failedRep(_ ends: Ends, of band: Ends, descentFromCm: Double?) -> Bool {
    guard let descentFromCm else { return false }
    let range = band.rangeCm
    return sameEnd(descentFromCm, band.topCm, rangeCm: range)
      && sameEnd(ends.bottomCm, band.bottomCm, rangeCm: range)
      && ends.topCm < band.topCm && !sameEnd(ends.topCm, band.topCm, rangeCm: range)
  }

  /// A squat's or bench press's rep comes down from the set's top first.
  /// A rise that came down less than `stallDescentShare` of the set's
  /// range before it, out of a stand more than `stallSigmas` noise
  /// deviations (and `sameEndMinCm`) above the set's bottom, goes on with
  /// a rise the bar had already made: a failed rep stuck there and lifted
  /// by the spotters (independent looked-at 40022: stuck 10 cm above the
  /// bottom 1.4 s, then 45 cm at 0.1 m/s, a 34-cm "rep"). Over a dirty
  /// floor, a paused bottom's noise makes such stands of its own, so the
  /// margin grows with the noise (at 2 σ a paused bench press lost its
  /// last rep to one: 60101). Looked-at 40000–40119 and 70000–70119:
  /// invented reps 17 → 14; nothing lost, tune 201–600 unchanged.
  static func goesOnFromAStall(_ rise: TurnFinder.Rise, inSet band: Ends, noiseCm: Double) -> Bool {
    guard let before = rise.previousPeak else { return false }
    return before.cm - rise.valley.cm < stallDescentShare * band.rangeCm
      && wellAboveTheBottom(rise.valley.cm, of: band, noiseCm: noiseCm)
  }
  static let stallDescentShare = 0.5
  static let stallSigmas = 4.0

  /// Above the set's bottom by more than `stallSigmas` noise deviations
  /// and `sameEndMinCm`: a stand there is no paused bottom's noise.
  static func wellAboveTheBottom(_ cm: Double, of band: Ends, noiseCm: Double) -> Bool {
    cm > band.bottomCm + max(sameEndMinCm, stallSigmas * noiseCm)
  }

  /// Whether the bar came up into the stand a rise left from, out of the
  /// set's bottom (`sameEnd`), within `stallPushS` before it: the push of
  /// a failed rep that stuck part-way. With no exercise named, the set's
  /// shape stands in for a squat or bench press, and a stand part-way up
  /// that the bar did not push into from the bottom is some other lift's
  /// start: a clean's set of 106–150 cm "reps" (a pull and the catch)
  /// took the first press from the shoulders for one going on from a
  /// stall (independent looked-at 40042). A stand itself within `sameEnd`
  /// of the bottom passes on its own readings: that low, it is the set's
  /// bottom by the band's own tolerance (60089's, 8 cm over a 43-cm set's).
  static func pushedIntoTheStand<C: BidirectionalCollection<TimedHeight>>(
    _ rise: TurnFinder.Rise, inSet band: Ends, samples: C
  ) -> Bool {
    let from = rise.valley.t - stallPushS
    for s in samples.reversed() {
      if s.t < from { break }
      if s.t <= rise.valley.t, sameEnd(s.cm, band.bottomCm, rangeCm: band.rangeCm) { return true }
    }
    return false
  }
  /// A push that stalls is slow, under 0.2 m/s by the time it stops, and
  /// stops within half the range (`stallDescentShare`): 20 cm of a bench
  /// press's 40 takes up to 2–3 s.
  static let stallPushS = 3.0

  /// A squat's or bench press's rep comes down from the set's top. A rise
  /// whose descent began instead at a stand of `minStallS` or more between
  /// the set's ends (beyond `sameEnd` of its top, `wellAboveTheBottom`)
  /// comes after a failed rep:
  /// the lifter stalled there, the bar sank back to the bottom, and what
  /// lifts it again is the spotters (independent looked-at 60041: a bench
  /// press stuck at 77 cm of its 60–104 for 1.6 s, back on the chest, then
  /// 44 cm at 0.13 m/s). A lifter's lockout is held at the set's top, and
  /// a turn part-way (a squat of one and a quarter reps) is not held.
  /// The stand is timed within the turn finder's hysteresis of its level
  /// (`TurnFinder.Rise.previousPeakStoodS`), so it must lie more than
  /// twice that above the rise's bottom, or a paused bottom's time counts
  /// as the stall's: a stuck run 9 cm over a dirty chest (hysteresis 5.6
  /// cm) made a 1-s "stall" of a paused bench press's pause (30113).
  /// And the readings must show the stand (`stood`, over the
  /// `minStandBeforeSetS` from the stall's first highest point, or up to
  /// it): a sonar stuck through a rep and back made a smoothed "stall" its
  /// readings never held (tune sensor-faults 280). Up to it as well, for a
  /// lifter grinding against the stall creeps the bar up a few centimetres
  /// (past the turn finder's plateau) and it sinks from the highest point
  /// at once, or the noise spread the readings after it more than those
  /// before (whole centimetres, 85–91 after, 84–89 before): two spotter's
  /// rises of paused bench presses counted (independent looked-at 100109,
  /// 20105). Looked-at 1,020: invented reps 38 → 36, nothing else
  /// changed; tune 201–1000, ours held-out and both independent held-out
  /// sets unchanged. The bottom's margin was `sameEnd`'s, a fifth of the
  /// range: a squat stuck 10 cm over its bottom of a 60-cm set for 1.7 s
  /// and sunk back was within it (independent looked-at 100130). The
  /// stall must still stand twice the hysteresis over the bottom the bar
  /// sank back to, which no paused bottom's noise does. Looked-at 1,020:
  /// invented 34 → 33, nothing else changed; tune 201–1000 and ours
  /// held-out unchanged; fresh independent held-out invented 6 → 5.
  static func followsAStall(
    _ rise: TurnFinder.Rise, inSet band: Ends, samples: [TimedHeight], hysteresisCm: Double,
    noiseCm: Double
  ) -> Bool {
    guard let before = rise.previousPeak, rise.previousPeakStoodS >= minStallS,
      before.cm - rise.valley.cm > 2 * hysteresisCm
    else { return false }
    let range = band.rangeCm
    // Shown by the bar's readings, not a frozen sonar's repeats.
    let samples = StuckReadings.removed(from: samples, noiseCm: noiseCm)
    return before.cm < band.topCm && !sameEnd(before.cm, band.topCm, rangeCm: range)
      && before.cm - band.bottomCm <= maxStallShare * range
      && wellAboveTheBottom(before.cm, of: band, noiseCm: noiseCm)
      && (stood(
        samples, before: before.t + minStandBeforeSetS, atCm: before.cm, rangeCm: range,
        noiseCm: noiseCm)
        || stood(samples, before: before.t, atCm: before.cm, rangeCm: range, noiseCm: noiseCm))
  }
  /// A failing lifter grinds against the stall 0.4–2.2 s before the
  /// spotters take the bar (both independent simulators; spotters are
  /// taught to take it when it stops), timed here within the turn
  /// finder's hysteresis, which adds the slow ends of the push and the
  /// sink. First set at 1 s, from an older simulator's 1.5–2.8 s
  /// (looked-at 1–6, 660 streams: invented reps 39 → 33, none lost); at
  /// 0.5 s, 12,000 looked-at: invented 101 → 98, nothing lost; held-out
  /// 4,200: 33 → 32; blind looked-at 9 → 7 (missed 131 → 132: 7000042, a
  /// sonar frozen at the bottom), held-out 12 → 10; ours tune and
  /// held-out and the real presses unchanged (`bench-noisy-real.py`: one
  /// row of 16 missed 6 → 7, 3 cm of noise with no header). Read once
  /// after it, the fresh independent pair 2900000/2910000 lost a pull: a
  /// dead-stop deadlift with no header over a dirty floor, taken for a
  /// squat's or bench press's set, whose lowering paused at 60 cm among
  /// no-echo values (2910019).
  static let minStallS = 0.5
  /// A lift sticks in the lower part of its range (the bench press's
  /// sticking region lies early in its rise, Elliott et al. 1989; the
  /// squat's just above parallel), and the failing lifters of both
  /// independent simulators stall at most 60 % of the way up. A stand
  /// higher than this share of the set's range is a lockout read short:
  /// a headerless press set, its first press lowered from the unrack and
  /// so taken for a squat's or bench press's, lost the press after a
  /// lockout read at 80 % of the range and shown 0.6 s (the real presses
  /// with 3 cm of noise added, `bench-noisy-real.py`, once `minStallS`
  /// was 0.5 s). 12,000 looked-at: missed 460 → 458, nothing else moved;
  /// held-out 4,200: missed 156 → 149, exact sets one fewer (a dirty
  /// touch-and-go bench session, 1360012: missed 8 → 2, a set now split
  /// in two; 1100057: 2 → 1); blind, ours and the real presses
  /// unchanged; `bench-noisy-real.py` back to its row before `minStallS`
  /// moved.
  static let maxStallShare = 0.7

  /// A failed rep whose push off the bottom was too short for a turn of
  /// its own: a paused bench press pushed 5–10 cm off the chest, stuck
  /// there 1 s or more, and lifted by the spotters at 0.1–0.2 m/s. The
  /// turn finder keeps chest and stall as one valley (the push is within
  /// its hysteresis), so `followsAStall` and `goesOnFromAStall` never see
  /// a stall; the measurer starts the "rep" where the spotters' lift left
  /// it (fresh independent streams, 200000–259999: 15 of 43 invented reps,
  /// every noise level). Not a rep when, at its measured start, the bar
  /// had stood at one level (`standLevel` over two `minStandBeforeSetS`
  /// windows, within half `sameEndMinCm` of each other) well above the
  /// set's bottom (`wellAboveTheBottom`), having come up into that stand
  /// from the set's bottom within `stallPushS`, and the rise out of it is
  /// slower than `maxRiseOutOfAStallMps`. Fresh 1,440: invented 43 → 35,
  /// missed 114 → 115; looked-at 1,020 unchanged; the six held-out sets'
  /// invented reps 26 → 24 (exact sets unchanged: one more and one fewer);
  /// tune 201–600 one rep lost (a warm-up's), 601–1000, ours held-out and
  /// the sweep unchanged.
  static func liftedOutOfAStall(
    startS: Double, meanVelocityMps: Double, inSet band: Ends, samples: [TimedHeight],
    noiseCm: Double
  ) -> Bool {
    guard meanVelocityMps < maxRiseOutOfAStallMps,
      let level = standLevel(samples, endingAt: startS, noiseCm: noiseCm),
      let before = standLevel(samples, endingAt: startS - minStandBeforeSetS, noiseCm: noiseCm),
      abs(level - before) <= sameEndMinCm / 2,
      wellAboveTheBottom(level, of: band, noiseCm: noiseCm)
    else { return false }
    // From the newest back: the buffer can hold minutes before the stall.
    let pushed = (startS - stallPushS)...(startS - 2 * minStandBeforeSetS)
    return samples.reversed().lazy.prefix { $0.t >= pushed.lowerBound }.contains {
      pushed.contains($0.t) && sameEnd($0.cm, band.bottomCm, rangeCm: band.rangeCm)
        && $0.cm < level - sameEndMinCm / 2
    }
  }
  /// A lifter who grinds out of a stall does so at his maximal single's
  /// velocity (bench press 0.10 ± 0.04 m/s, squat 0.23 ± 0.05: Helms et
  /// al. 2017), and spotters lift at 0.1–0.2; a faster rise was a
  /// touch-and-go rep whose readings only seemed to stand before its
  /// measured start (a dirty floor's echo runs): without this bound fresh
  /// 1,440 lost three such reps and looked-at 1,020 four, with it one
  /// (fresh 240064).
  static let maxRiseOutOfAStallMps = 0.3

  /// A rep measured on readings the track gate had dropped
  /// (`BottomEchoes.readmitted`) is weaker evidence than one it kept: the
  /// same sonar that sent them switches between the legs, the floor and
  /// the bar on the hooks as a squat is walked back in or a bench bar is
  /// reracked. It counts only where it is like the set's own reps: its
  /// range the set's (within `sameEnd` of the band's), and no faster than
  /// `maxSpeedOverSetsFastest` times the set's fastest rep so far. 12,000
  /// looked-at: missed 711 → 634, invented 118 → 121 (without the speed
  /// bound 629 / 132, without the range 629 / 127; a walk-in's "reps" ran
  /// at 0.9–1.9 m/s in sets of 0.3–0.8, 19–36-cm bars in the rest after
  /// touch-and-go bench presses).
  static func likeTheSetsReps(_ rep: RepReport, band: Ends, fastestMps: Double?) -> Bool {
    sameEnd(rep.romCm, band.rangeCm, rangeCm: band.rangeCm)
      && rep.meanVelocityMps <= maxSpeedOverSetsFastest * (fastestMps ?? .infinity)
  }
  /// A set slows as it goes on (velocity loss: Sánchez-Medina and
  /// González-Badillo 2011), and a rep faster than its set's fastest by
  /// more than rep-to-rep scatter and a dirty sonar's error (MV MAE 0.06
  /// m/s at 0.5–0.9) is not the lifter's. On the 12,000 looked-at,
  /// invented / missed: 1.1 120 / 641, 1.25 121 / 634, 1.5 122 / 631.
  static let maxSpeedOverSetsFastest = 1.25

  /// A rise in a set that has reps: the set's top, and its bottom or a round
  /// trip from the top.
  static func belongs(_ ends: Ends, toSet band: Ends, cameDownFirst: Bool) -> Bool {
    let range = max(band.rangeCm, ends.rangeCm)
    return sameEnd(ends.topCm, band.topCm, rangeCm: range)
      && (sameEnd(ends.bottomCm, band.bottomCm, rangeCm: range) || cameDownFirst)
  }

}
