/// Drops readings the bar cannot have produced, deciding each reading as soon
/// as it can: every sample held back here delays the rep event by as much.
///
/// A loaded bar moves smoothly, so a line through the last few accepted
/// readings says where the next one must lie, give or take the sensor's
/// noise and what an acceleration can bend the path in one sample period.
/// A reading near that prediction is passed on at once (no look-ahead: the
/// usual case). One beyond anything the bar could reach is dropped at once:
/// the HC-SR04's echoes off legs, feet and plates, its no-echo values, a
/// multipath reading. One in between is held for one more reading, which
/// says whether the bar really went there (the next reading continues from
/// it) or not; for two more when readings were rejected just before it, as
/// wrong readings come in clusters.
///
/// A reading let in after rejected ones brings back those that lie on the
/// way to it (`bridge`): a bar can leave a bounce faster than the track's
/// line bends, and its ramp is then rejected until the top is reached.
///
/// The track can itself be wrong: it may have started on a bad reading, or
/// the sensor was pointed elsewhere while the clip was handled. Rejected
/// readings that keep agreeing with each other for `reanchorS` become the
/// new track. After a silence longer than `staleS` the track is forgotten
/// and rebuilt from the first readings that agree.
struct TrackGate: Sendable {
  /// Accepted readings the prediction is fitted on: enough to average the
  /// noise, few enough that the line bends with the bar (0.1–0.2 s at
  /// 20–40 Hz).
  static let trackReadings = 4
  /// Readings that must agree before a track starts.
  static let bootstrapReadings = 3
  /// Added to every gate: integer-cm quantisation and an HC-SR04's ±1 cm.
  static let marginCm = 3.0
  /// Gates are this many residual deviations of the track wide, with the
  /// deviation clamped to what a working sonar shows (0.5–3 cm).
  static let sigmas = 3.0
  static let sigmaRangeCm = 0.5...3.0
  /// Acceleration a reading may show and still pass at once: 5 m/s² covers
  /// the body of most reps (a 0.8 s squat peaks near 4 m/s²).
  static let typicalAccelerationCmPerS2 = 500.0
  /// Beyond this no bar goes: 20 m/s² is the sharp bottom of a light,
  /// bounced bench press; the readings a sonar gets wrong land far outside.
  static let maxAccelerationCmPerS2 = 2000.0
  /// Nor faster than this: the second pull of a snatch peaks near 3 m/s.
  static let maxSpeedCmPerS = 300.0
  /// Downwards, a loaded bar accelerates at most as it falls: gravity
  /// (9.81 m/s²). A lifter brakes a descent and drives a bounce upwards
  /// (hence the 20 m/s² above), but nobody throws a loaded bar at the
  /// floor faster than it drops; a reading below the free-fall path from
  /// the track is a leg, a foot or a plate. Unless the track is one value
  /// repeated: a stuck sonar repeats its last reading while the bar moves
  /// on unseen, so such a track bounds nothing.
  ///
  /// A reading near the line is passed at once only within such a fall
  /// from the track's newest reading (`fallReach`): the typical gate's
  /// bend grows with the track's span, and a track stretched across
  /// rejected readings spans long. A sonar switching between two targets
  /// under a squat bar on the hooks left a track of 140, then 112, 108,
  /// 110 cm over 0.42 s, whose gate passed a lone 62 cm after a no-echo
  /// at once: 48 cm down in 0.14 s from a bar standing, and a 61-cm "rep"
  /// in the rest (independent looked-at 1680108). Looked-at 10,800
  /// streams: invented reps 139 → 129, missed 750 → 733, reports that
  /// were no set 9 both (a switching sonar's rest reads one way or the
  /// other: three gone, three new); 1,200 fresh after it: no set 7 → 5,
  /// invented 24 → 19, missed 90 → 92; our splits: held-out 5000–5199
  /// missed 21 → 20, tune 201–600 123 → 127, the rest unchanged. Measured
  /// from the line instead (`fallGate`), a squat's braking lockout and a
  /// track started on a bad reading lost their readings
  /// (SwitchingSonarTests, BottomEchoesTests).
  static let maxDownwardAccelerationCmPerS2 = 981.0
  /// Agreeing off-track readings for this long replace the track.
  static let reanchorS = 0.4
  static let reanchorReadings = 4
  /// The HC-SR04 answers with its nearest echo, so a reading under the bar
  /// is something between the clip and the floor: a side spotter's hands
  /// cupped under the sleeve, a plate's rim, a knee. Such a run begins
  /// where no bar goes in one reading (beyond the free fall from the track,
  /// `occludes`) and reads one level while the bar moves on unseen behind
  /// it; the bar is back where its own readings resume. Replacing the
  /// track with it after `reanchorS` made the rim the bar: a press's
  /// plate rim read 22–24 cm for 1.5 s from its lockout down to the
  /// shoulders, and the next press, rising from there, was lost (blind
  /// looked-at 7000053; the blind simulator's hands and rims run 2–40
  /// readings). Such a run is dropped, reading by reading, for up to this
  /// long: a bar that really went there and stayed is followed after it.
  /// Not while a reading is held: the run's next reading then decides it,
  /// as any reading does (letting the run wait, a spiky region's 74 cm
  /// confirmed a held 98 and cost a set of nine, ours tune
  /// continuous-sets 854). Blind looked-at (240 streams): exact sets
  /// 79.4 → 83.2 %, missed reps 171 → 131, reports that were no set 9 → 8,
  /// invented 11 → 12; independent looked-at (12,000): missed 498 → 481,
  /// invented 116 → 107, no set 4 both. Before the held-reading rule,
  /// 1.5 s read 134 blind misses and 2.5 s 130 (the independent's 483 and
  /// 486), against 129 and 483 at 2 s.
  static let maxOcclusionS = 2.0
  /// Only under a track that has held this long: one started on a rolled
  /// clip's readings (84–93 cm off the bar rolling on the floor, 0.3 s
  /// old) is no bar, and the bar's own readings under it were dropped as
  /// a hand (independent looked-at 1400013: a deadlift lost). Without it,
  /// independent looked-at missed 498 → 612, at 0.5 s 495 (both measured
  /// before the band below). It costs the runs under a bottom the bar was
  /// just seen at again: a spotted squat's hands from its bottom up are
  /// still taken for the bar (blind looked-at 7000214).
  static let occlusionTrustS = 1.0
  /// A reading belongs to the run within the gate's least width
  /// (`marginCm` and three of the least deviation): a hand reads one
  /// distance give or take the sonar's noise. Within the stream's noise
  /// instead (±10 cm on a dirty clip), the floor a deadlift came down to,
  /// 6 cm above near-floor junk, was dropped as the junk (independent
  /// looked-at 1430035). The run must begin this far below the track's
  /// lowest reading too, or a noisy bar's own readings fall within it (a
  /// carried bar at 88 ± 4 cm read as a hand at 85: independent
  /// 1990086, a report that was no set). Below the band too, readings
  /// under the run are not the run: a touch-and-go pull comes down past
  /// its rim (independent looked-at missed 481 → 528 counted so).
  static let occluderBandCm = marginCm + sigmas * sigmaRangeCm.lowerBound
  /// A reading is passed on at once only when it is about one sample period
  /// ahead of the track: after missing or rejected readings the bar could
  /// have gone further, but a wrong reading could too, so the next reading
  /// must agree with it first. After rejected readings that holds even for
  /// a reading on the track's line: a line through a fast rise, carried
  /// 0.25 s across a cluster of echoes, reaches where no bar goes (a
  /// squat's 175 cm "top" among echoes, 35 cm above its lockout, made the
  /// next rep's descent start from nowhere and the rep was lost). After
  /// readings merely missing (a skipped ping, a BLE burst's spacing) a
  /// reading near the line passes at once: holding those too lost real
  /// readings (tune seeds 201–600: PV MAE 0.067 → 0.070, four more
  /// reports that were no set). Measured on tune seeds 201–600 (4,400
  /// streams, never tuned on before; `agree`'s speed bound in both):
  /// sensor-faults 85.0 → 88.4 % exact, missed reps 211 → 183 in all,
  /// exact sets 97.1 → 97.4 %, reports that were no set 32 → 33.
  static let promptPeriods = 1.5
  /// Rejected readings restored as the bar's way to a reading accepted
  /// after them (`bridge`) must spread over at least this share of it: a
  /// ramp covers its way, while an echo run, or the new level read early,
  /// sits at one height (three echoes at 85 cm between a bottom at 69 and
  /// a top at 132, each within a bar's speed of the one before). Without
  /// it, a lone reading at rest and the level after a spike were restored
  /// too, and three looked-at streams each lost or gained a rep through
  /// what followed (40059, 90078, 100234); with it, the bridge changed
  /// only 70081 (found) among the looked-at counts, and tune 337 (found).
  static let bridgeSpreadShare = 0.5
  /// A track older than this says nothing about where the bar is now.
  static let staleS = 0.5
  /// An HC-SR04 that misses echoes repeats one value for several readings
  /// (3–10 seen; the independent simulator's runs are 3–19 readings) while
  /// the bar moves on. Repeats of one value that began while the track
  /// moved faster than `stuckSpeedCmPerS` never start a track, until they
  /// have lasted `maxStuckS` (a bar that really stopped there stays
  /// longer). At 0.8 s a run of 18 readings at 17 Hz (0.99 s) under a
  /// speed squat's bottom had become the bar at rest, and the top read
  /// after it, 44 cm above, was dropped as out of reach: the rep lost
  /// (independent looked-at 60097). 0.8 → 1.0 s: looked-at exact sets
  /// 97.8 → 97.9 %, missed 71 → 66, invented 26 → 24, nothing lost;
  /// held-out 80000– and 140000– a rep more found each, the other two
  /// unchanged; tune 201–1000 missed 342 → 338, the sweep 4 → 3. At 1.1
  /// and 1.2 s the same gains, but a dirty bench press's stream (20080)
  /// read two reports that were no set and three more invented reps.
  static let stuckSpeedCmPerS = 15.0
  static let maxStuckS = 1.0
  /// A run that began faster than a bar can stop within the clip's
  /// resolution is a stuck sonar however long it lasts (`frozenInMotion`).
  /// A whole centimetre: the coarsest clip's step, and on a millimetre
  /// clip a stricter bound than its own.
  static let resolutionCm = 1.0
  /// A fall the free-fall gate let in after rejected or missing readings
  /// (`fallGate`) is held back for this long: a sonar seeing a bench, a
  /// leg or a plate answers with runs of 3–5 readings of the one echo, and
  /// three agreeing readings far below a resting bar passed as a drop.
  /// Should `restoreReadings` in a row then agree with the track from
  /// before the fall, and not with the fall, the fall was an echo run: its
  /// readings go and the old track carries on. A bar that really fell is
  /// not seen back at its old level within a few readings. The bar in the
  /// bottom of a paused bench press read 35 cm then 20 cm below itself
  /// between readings of 65 (independent looked-at 9017, 9029), and a
  /// deadlift at lockout read 32 cm five times (9031): each rep was lost.
  /// Independent looked-at seeds 9000–9059 / 20000–20119, exact sets
  /// 95.1 → 96.3 % / 90.1 → 91.3 % (invented reps 0 → 3 / 19 → 14, missed
  /// 8 → 5 / 33 → 29); tune 201–600 missed 249 → 244. Held 0.4 or 0.5 s,
  /// a report that was no set more on tune.
  static let fallProbationS = 0.3
  /// Nor before the sonar has sent this many readings since the fall (up
  /// to `staleS`): the echo runs are counted in readings, and at 15 Hz
  /// five of them last 0.33 s, so the bar's first reading back came just
  /// after 0.3 s and the echoes under a spotted bench press stood
  /// (independent looked-at 90101, 70012, 40057). Six, the run and the
  /// first reading back: at 20 Hz and faster the time bounds it as before
  /// (seven held a fall under a bench press's chest 0.35 s, until the
  /// rep's rise restored the descent past its bottom: tune 262 lost its
  /// set). A fall the track gate still held when its track went stale
  /// goes on probation too (`decide`). Looked-at (1,020 streams): exact
  /// sets 97.0 → 97.2 %, missed reps 83 → 77, invented 39 → 38; tune
  /// 201–1000 missed 348 → 346; old independent held-out missed 4 → 3;
  /// the fresh one lost a set (95.5 → 95.2 %: invented 5 → 6, missed
  /// 13 → 12).
  static let fallProbationReadings = 6
  static let restoreReadings = 2
  /// And never for more readings than this (0.3 s at 200 Hz): readings at
  /// one timestamp, however many, must not be held without bound.
  static let maxProbationReadings = 64
  /// A level a fall was restored from is an echo's (a bench, a rack foot
  /// under a bar on the hooks): another fall to it within this long is
  /// refused at once, or a sonar switching between the floor and the foot
  /// alternates the track between them and the swings pass for reps
  /// (invented reps, looked-at seeds 9000–9059: 8 without this memory, 3
  /// with it, all in 9053's rest; `Analyzer.mayStartSetAlone` the rest).
  static let echoMemoryS = 5.0
  /// A clip that reports millimetres, under this much noise (σ, cm), reads
  /// one value twice in a row by chance about once in 20 (two readings in
  /// one 1 mm bin), three or more times in a row almost never: such a run
  /// is a stuck sonar even when the bar was at rest before it. A clip that
  /// reports whole centimetres repeats values at rest all the time.
  static let stuckNoiseCm = 0.5

  private var track: [TimedHeight] = []  // newest last, ≤ trackReadings
  private var held: TimedHeight? = nil  // a reading waiting for the next one
  /// Whether readings were rejected just before the held one: a sonar
  /// seeing legs, a bench or plates sends clusters of wrong readings, two
  /// of which agree often enough (a bench press's bottom at 65 cm read as
  /// 18 and 11 between 33 and 25, the rep then lost). Such a held reading
  /// needs two readings carrying on from it, the first of which waits
  /// with it: the second must continue the line through the two, bent by
  /// no more than the hardest turn a bar makes (`maxAccelerationCmPerS2`).
  /// Tune seeds 1–40 (with `RepMeasurer.minWindowReadings`): sensor-faults
  /// 89.8 → 91.5 % exact, floor-to-rack 98.5 → 100 %, and no false set
  /// from echoes in a rack session's rest; the first events' latency
  /// unchanged (p50 0.22, p90 0.33 s).
  private var heldAfterRejects = false
  /// Whether the sonar answered nothing (a no-echo value, out of the
  /// plausible range) since the last accepted reading: the same failing
  /// sonar as rejected readings, so a held reading after it is confirmed
  /// the same way. Between a sonar's no-echo values its other readings
  /// are often wrong too: a bench press bar resting at 93 cm read 400, 0,
  /// 50, 0, 22, 25, 0, 0 and 95 alternating with 400, and 50 → 22 → 25
  /// passed, one reading at a time, as a drop and a 43 cm "rep" (tune
  /// sensor-faults 529). Tune seeds 201–600: 17 streams changed, reports
  /// that were no set 5 → 4, invented reps 20 → 19, missed 235 → 234,
  /// summed velocity errors down (MV −1.07, PV −1.01 m/s over the 17).
  private var noEchoSinceAccepted = false
  private var confirmer: TimedHeight? = nil
  /// Whether the held reading lay on the track's line (held only for how
  /// far ahead it was, `promptPeriods`): the next reading confirms it by
  /// lying on the line through the track and it.
  private var heldOnLine = false
  /// Whether the held reading was let in only as a fall (`fallGate`).
  private var heldAsFall = false
  /// A fall on probation (`fallProbationS`): the track from before it,
  /// the accepted readings held back since, and readings back on the old
  /// track that may yet restore it.
  private struct Probation {
    var startT: Double
    var oldTrack: [TimedHeight]
    var oldLastAccepted: TimedHeight?
    var oldTrackSpeed: Double
    var oldAcceptedRun: (start: TimedHeight, speed: Double, count: Int)?
    var held: [TimedHeight] = []
    var votes: [TimedHeight] = []
    /// Readings pushed since it began (`fallProbationReadings`).
    var seen = 0
  }
  private var probation: Probation? = nil
  /// The level of the last fall restored (`echoMemoryS`), and until when.
  private var echoLevel: (cm: Double, until: Double)? = nil
  /// The sonar's own noise (cm, `SonarNoise`): the second confirmation is
  /// read off a line through two readings, whose slope carries it (a soft
  /// floor's 3 cm made a bar at rest at lockout fail it).
  var noiseCm = 0.0
  private var bootstrap: [TimedHeight] = []  // ≤ bootstrapReadings
  /// Readings pushed, and those with a fraction of a centimetre: the clip's
  /// resolution (`readsWholeCm`).
  private var readingsSeen = 0
  private var fractionalReadings = 0
  /// Whether at most half the readings so far had a fraction: a
  /// millimetre clip reads a whole value one time in ten.
  var readsWholeCm: Bool { 2 * fractionalReadings <= readingsSeen }
  /// Whether one value read again is a stuck sonar rather than chance
  /// (`stuckNoiseCm`): such a run then starts no track.
  private var repeatsAreRare: Bool {
    !readsWholeCm && noiseCm >= Self.stuckNoiseCm
  }
  private var offTrack: [TimedHeight] = []  // consecutive rejected readings
  /// The first of the rejected readings when they began under the bar
  /// (`occludes`, `maxOcclusionS`), else nil.
  private var occluder: TimedHeight? = nil
  /// When the track was last started or replaced (`occlusionTrustS`).
  private var trackSince = -Double.infinity
  /// The readings that just replaced the track (`reject`), passed on after
  /// the reading that made them the track.
  private var reanchoredWay: [TimedHeight] = []
  private(set) var removed = 0
  /// The track's speed when it last accepted a reading.
  private var trackSpeed = 0.0
  /// The newest accepted reading (when and where), kept when a stale track
  /// is forgotten.
  private var lastAccepted: TimedHeight? = nil
  private var lastAcceptedT: Double { lastAccepted?.t ?? -.infinity }
  /// The value the latest readings repeat, and where that run began.
  private var run: TimedHeight? = nil
  /// Likewise for the accepted readings, with the track's speed when the
  /// run began.
  private var acceptedRun: (start: TimedHeight, speed: Double, count: Int)? = nil

  /// When the sonar last answered after a run it was stuck in while the bar
  /// moved (`frozenInMotion`), with a reading farther from the run's value
  /// than a bar at rest reaches in the time between: the bar seen again
  /// where it went while the run hid it. `Analyzer` starts its smoother
  /// again there.
  private(set) var thawedT = -Double.infinity

  /// Whether the track is one value repeated: a stuck sonar's, which
  /// bounds no fall (`maxDownwardAccelerationCmPerS2`).
  private var trackIsOneValue: Bool { track.allSatisfy { $0.cm == track[0].cm } }

  /// Where the bar was last seen when the whole track is one value
  /// repeated (`StuckReadings.minRun` readings or more): the run's first
  /// reading. A sonar that missed its echoes repeats its last value while
  /// the bar moves on, so the repeats say nothing about where the bar
  /// went; the next real reading may be as far from them as the bar could
  /// go since the run began (a squat's bottom, 20 cm below a run that
  /// froze on the way down, was dropped as out of reach and the rep
  /// measured from halfway up). One that far is held, not accepted: the
  /// reading after it must carry on from it. Only a run that began while
  /// the track moved (`stuckSpeedCmPerS`) and has lasted less than
  /// `maxStuckS`: a bar at rest on a whole-cm clip repeats one value for
  /// as long as it rests, and a reading far off it is a hand or a plate
  /// under the sonar (as on a real recording), not the bar. Or longer, if
  /// its sonar's noise repeats one value that often by chance less than
  /// once in a thousand runs (`StuckReadings.frozenByChance`), or if it
  /// began faster than a bar stops (`frozenInMotion`): a
  /// touch-and-go deadlift's millimetre sonar froze at 72.7 cm for 2.3 s,
  /// from three quarters of the way up one pull through its lockout, its
  /// descent and the touch, and answered at 30.5 cm, 8 cm up the next
  /// pull, which was lost (blind looked-at 7000051; it now reads 47 of
  /// 56 cm). With `Analyzer`'s smoother restart after such a run:
  /// independent looked-at 12,000 missed 524 → 507, invented 117 → 116
  /// (22 streams better, 4 worse: bottoms under a run measured as
  /// partials before, now lost); blind looked-at missed 191 → 183,
  /// invented 12 → 11 (9 better, 2 worse). The gate alone lost a frozen
  /// pull's partials too (`FrozenSonarTests`).
  private var stuckSince: TimedHeight? {
    guard let run = acceptedRun,
      abs(run.speed) > Self.stuckSpeedCmPerS,
      lastAcceptedT - run.start.t < Self.maxStuckS
        || StuckReadings.frozenByChance(runLength: run.count, noiseCm: noiseCm)
        || frozenInMotion(speed: run.speed),
      track.count >= StuckReadings.minRun, track.allSatisfy({ $0.cm == run.start.cm })
    else { return nil }
    return run.start
  }

  /// Whether a run that began at `speed` (cm/s) began faster than any bar
  /// stops within the clip's resolution and the sonar's noise: braking at
  /// `maxAccelerationCmPerS2`, it would have gone on past the run's value
  /// and been read there. The sonar froze and the bar moved on, whether the
  /// run lasts a second or three. On a quiet whole-cm clip no run is
  /// `StuckReadings.frozenByChance`: blind looked-at 7000219 (σ 0.35 cm),
  /// a touch-and-go deadlift descending at 1.1–1.5 m/s, read 66 cm for
  /// 1.24 s through the touch and answered at 39, 17 cm up the next pull;
  /// past `maxStuckS` the gate dropped the pull's first readings as off the
  /// track, and the rep was lost. With `Analyzer`'s smoother restart where
  /// the bar is seen again (`thawedT`): that rep and one in independent
  /// looked-at 420104 found, no other stream's row moved among 12,240
  /// looked-at and 4,440 held-out streams, nor our splits'. A bar dropped
  /// onto the floor or the pins stops harder than 20 m/s², and its rest
  /// reads as such a run: the gate then looks further for the bar, but a
  /// reading far off the run must still be carried on by the next one. A
  /// bar at 0.5 m/s brakes within 0.6 cm: no run begun that slowly counts.
  private func frozenInMotion(speed: Double) -> Bool {
    speed * speed / (2 * Self.maxAccelerationCmPerS2) > Self.resolutionCm + Self.sigmas * noiseCm
  }

  init() {
    track.reserveCapacity(Self.trackReadings + 1)
    bootstrap.reserveCapacity(Self.bootstrapReadings + 1)
    offTrack.reserveCapacity(16)
  }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    if var p = probation {
      p.seen += 1
      if s.t - p.startT > Self.fallProbationS
        && (p.seen >= Self.fallProbationReadings || s.t - p.startT > Self.staleS)
        || p.held.count + p.votes.count >= Self.maxProbationReadings
      {
        endProbation(emit: emit)
      } else if track.count < 2 {
        // The fall's own track is still starting (after a stale one).
        probation = p
      } else {
        let old = Self.prediction(p.oldTrack, at: s.t)
        let new = Self.prediction(track, at: s.t)
        // Above the fall, not merely off it: an echo run under a bench
        // press's descent, 50 cm below the bar, lay as far from the
        // descent's line as from the old track's and passed for the bar
        // back at its old place (20068, with `isDrop`).
        if abs(s.cm - old.cm) <= Self.gate(old, Self.typicalAccelerationCmPerS2, s.t)
          || tooFastABottom(p, to: s, old: old),
          s.cm - new.cm
            > Self.gate(
              new, Self.typicalAccelerationCmPerS2, s.t, atMostPeriods: Self.promptPeriods)
        {
          p.votes.append(s)
          // A vote that lies with the fall (within a run's width of its
          // highest reading, `occluderBandCm`) is more of the echo run,
          // which only the fall's line, pulled down by the old track's last
          // reading, put above it; once later votes are enough, it no
          // longer speaks against their agreeing: a leg under a carried bar
          // became the track, and the pick-up a set of one (independent
          // looked-at 1790010, `aStrayVoteDoesNotKeepAnEchoRunAsTheBar`).
          // 12,000 looked-at: reports that were no set 5 → 4, invented 102
          // → 101, missed 460 both (1430001 a pull found, 1510010 a
          // squat single lost); held-out, blind, ours and the real presses
          // unchanged.
          // Judging only the latest votes instead, whatever their level,
          // restored a fall that was a speed squat's bottom from the rise
          // out of it (1500097).
          let fallTop = p.held.lazy.map(\.cm).max() ?? -.infinity
          while p.votes.count > Self.restoreReadings,
            p.votes[0].cm - fallTop <= Self.occluderBandCm
          {
            p.votes.removeFirst()
            removed += 1
          }
          if p.votes.count >= Self.restoreReadings, Self.agree(p.votes) {
            restore(p, emit: emit)
          } else {
            probation = p
          }
          return
        }
        removed += p.votes.count
        p.votes.removeAll(keepingCapacity: true)
        probation = p
      }
    }
    decide(s, emit: emit)
    passOnReanchoredWay(emit: emit)
  }

  /// The readings that replaced the track, in order, after the newest
  /// passed on; while a fall is on probation they wait with it.
  private mutating func passOnReanchoredWay(emit: (TimedHeight) -> Void) {
    guard !reanchoredWay.isEmpty else { return }
    for r in reanchoredWay where r.t > lastAcceptedT {
      removed -= 1
      lastAccepted = r
      if probation != nil { probation?.held.append(r) } else { emit(r) }
    }
    reanchoredWay.removeAll(keepingCapacity: true)
  }

  /// Whether `s` lies where no bar that went down to the fall's lowest
  /// reading could be back up by now: from the old track's newest reading,
  /// at its speed, down to the fall and up again to `s`, the bar turning
  /// at the bottom, is faster than `maxAccelerationCmPerS2` allows
  /// (accelerated all the way down, from rest all the way up: the least
  /// time either leg takes). A touch-and-go bench press over a dirty floor
  /// was read at its bottom (58–66 cm), then a spotter's hands 25 cm under
  /// it came in as a fall, and the bar's drive out of the bottom lay far
  /// above the descent's line, which still went down: no vote, the hands
  /// stood and the rep was lost (independent looked-at 30052). A bar that
  /// really went down there and bounced could be back, so it never votes.
  /// Looked-at 1,020 streams: that rep found, nothing else moved; the
  /// five held-out sets' totals unchanged; tune 201–1000 three streams'
  /// velocity moved by 0.001–0.004 m/s, no count.
  private func tooFastABottom(_ p: Probation, to s: TimedHeight, old: Prediction) -> Bool {
    // Within the old track's reach, as any reading it lets in: a burst of
    // garbage far above it lies beyond any bottom too.
    let offOld = abs(s.cm - old.cm)
    guard let from = p.oldLastAccepted ?? p.oldTrack.last,
      let lowest = p.held.lazy.map(\.cm).min(), s.t > from.t,
      offOld <= Self.gate(old, Self.maxAccelerationCmPerS2, s.t),
      offOld <= Self.marginCm + Self.maxSpeedCmPerS * old.ahead
    else { return false }
    let slack = Self.marginCm + Self.sigmas * noiseCm
    let down = from.cm - lowest - slack
    let up = s.cm - lowest - slack
    guard down > 0, up > 0 else { return false }
    let a = Self.maxAccelerationCmPerS2
    let line = Self.prediction(p.oldTrack, at: from.t)
    let v0 = max(-p.oldTrackSpeed, 0) + Self.sigmas * line.slopeSigma(max(line.sigma, noiseCm))
    let downS = ((v0 * v0 + 2 * a * down).squareRoot() - v0) / a
    let upS = (2 * up / a).squareRoot()
    return s.t - from.t < downS + upS
  }

  /// The fall held its ground: its readings are the bar's.
  private mutating func endProbation(emit: (TimedHeight) -> Void) {
    guard let p = probation else { return }
    probation = nil
    removed += p.votes.count
    for r in p.held { emit(r) }
  }

  /// The fall was an echo run: its readings go, and the old track carries
  /// on through the readings that came back to it.
  private mutating func restore(_ p: Probation, emit: (TimedHeight) -> Void) {
    probation = nil
    removed += p.held.count + (held == nil ? 0 : 1) + (confirmer == nil ? 0 : 1)
    held = nil
    confirmer = nil
    track = p.oldTrack
    lastAccepted = p.oldLastAccepted
    trackSpeed = p.oldTrackSpeed
    acceptedRun = p.oldAcceptedRun
    offTrack.removeAll(keepingCapacity: true)
    let level = p.held.reduce(0) { $0 + $1.cm } / Double(max(p.held.count, 1))
    if let last = p.held.last { echoLevel = (level, last.t + Self.echoMemoryS) }
    for v in p.votes { accept(v, emit: emit) }
  }

  private mutating func decide(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    readingsSeen &+= 1
    if s.cm != s.cm.rounded() { fractionalReadings &+= 1 }
    if run?.cm != s.cm { run = s }
    if stuckRepeat(s) {
      removed += 1
      return
    }
    // Before the track goes stale: the run lasts longer than `staleS`.
    if held == nil, let o = occluder, !offTrack.isEmpty, s.t - o.t < Self.maxOcclusionS,
      abs(s.cm - o.cm) <= Self.occluderBandCm
    {
      reject(s)
      return
    }
    if let newest = track.last, s.t - newest.t > Self.staleS {
      // A fall still held when the track went stale starts the new track
      // on probation, as it would have the old one (`fallProbationS`);
      // so does a held reading far below all of the track (`isDrop`),
      // which so far ahead the typical acceleration reaches.
      if let h = held, probation == nil,
        heldAsFall || Self.isDrop(h, below: track, sigma: Self.prediction(track, at: h.t).sigma)
      {
        probation = Probation(
          startT: h.t, oldTrack: track, oldLastAccepted: lastAccepted,
          oldTrackSpeed: trackSpeed, oldAcceptedRun: acceptedRun)
      }
      track.removeAll(keepingCapacity: true)
      offTrack.removeAll(keepingCapacity: true)
      // A held reading never had the next one to confirm it: it must agree
      // with the readings that start the new track, like any other.
      if let h = held {
        held = nil
        start(with: h, emit: emit)
        if let c = confirmer {
          confirmer = nil
          start(with: c, emit: emit)
        }
      }
    }
    guard track.count >= 2 else {
      start(with: s, emit: emit)
      return
    }
    if let h = held {
      // The held reading stays if this one carries on from it, at the
      // speed the bar must have had to get there, rather than from the
      // track without it.
      let carriesOn =
        if heldOnLine {
          Self.continues(s, track: track, through: h)
        } else if let c = confirmer {
          Self.carriesOn(
            s, from: h, to: c, track: track, acceleration: Self.maxAccelerationCmPerS2,
            noiseCm: noiseCm)
        } else {
          Self.carriesOn(
            s, from: stuckSince ?? track[track.count - 1], to: h, track: track,
            acceleration: Self.typicalAccelerationCmPerS2, noiseCm: 0)
        }
      if carriesOn, confirmer == nil, heldAfterRejects {
        confirmer = s
        return
      }
      held = nil
      if carriesOn {
        if heldAsFall, confirmer != nil || heldOnLine, probation == nil {
          probation = Probation(
            startT: h.t, oldTrack: track, oldLastAccepted: lastAccepted,
            oldTrackSpeed: trackSpeed, oldAcceptedRun: acceptedRun)
        }
        let way = bridge(to: h)
        removed -= way.count
        for r in way { accept(r, emit: emit) }
        accept(h, emit: emit)
        if let c = confirmer { accept(c, emit: emit) }
      } else {
        reject(h)
        if let c = confirmer { reject(c) }
      }
      confirmer = nil
    }
    var p = Self.prediction(track, at: s.t)
    if let since = stuckSince { p.ahead = s.t - since.t }
    let deviation = abs(s.cm - p.cm)
    if deviation
      <= Self.gate(p, Self.typicalAccelerationCmPerS2, s.t, atMostPeriods: Self.promptPeriods),
      s.cm >= track[track.count - 1].cm - Self.fallReach(p, noiseCm: noiseCm) || trackIsOneValue
    {
      if offTrack.isEmpty || p.ahead <= Self.promptPeriods * p.spacing {
        accept(s, emit: emit)
      } else {
        // Near the line, but after wrong readings and far ahead: the next
        // reading must carry on from it (one is enough: it is on the line).
        held = s
        heldAfterRejects = false
        heldOnLine = true
        heldAsFall = Self.isDrop(s, below: track, sigma: p.sigma)
      }
    } else if deviation <= Self.gate(p, Self.maxAccelerationCmPerS2, s.t),
      deviation <= Self.marginCm + Self.maxSpeedCmPerS * p.ahead,
      s.cm >= p.cm || trackIsOneValue || deviation <= Self.fallGate(p)
    {
      let asFall =
        s.cm < p.cm && deviation > Self.gate(p, Self.typicalAccelerationCmPerS2, s.t)
        && !trackIsOneValue
      if asFall, let echo = echoLevel, s.t <= echo.until,
        abs(s.cm - echo.cm) <= Self.marginCm + Self.sigmas * max(noiseCm, p.sigma)
      {
        reject(s)
        return
      }
      held = s
      heldAfterRejects = !offTrack.isEmpty || noEchoSinceAccepted
      heldOnLine = false
      // Below the track amid a run under the bar, a reading the bar could
      // reach is as likely more of what is under it: let in, it goes on
      // probation as a fall, and the bar seen back above it takes it
      // back. A bench press's descent sent 75, 72, then 31, 0, 13, 28,
      // 20, 10 and 7 cm in one BLE burst; the 31 and 28 were dropped as
      // a run under the bar, the 20, 10 and 7 let in as its path, and the
      // rise out of the bottom after them, off that track, was dropped:
      // the rep lost (SampleStreams scenario-sensor-faults, 100 → 98 %
      // exact sets without this). Independent looked-at: missed 481 →
      // 459, invented 107 → 102, no set 4 → 5 (33 streams better, 8
      // worse); blind looked-at unchanged.
      heldAsFall = asFall || (s.cm < p.cm && occluder != nil && !offTrack.isEmpty)
    } else {
      reject(s)
    }
  }

  /// Whether `s`, on the track's line, is still far below every reading of
  /// the track: a line through a resting bar's noise slopes too (a dirty
  /// floor's 24, 22, 20 cm under a deadlift at rest), and carried 0.1 s
  /// across rejected readings it met a run of echoes 12 cm below (20071).
  /// Such a reading is a fall as much as one let in by `fallGate`.
  /// With votes only from above the fall (`push`): independent looked-at
  /// 20000–20119 exact sets 91.3 → 91.9 %, reps missed 30 → 27, invented
  /// 14 → 12 (dirty 75.0 → 77.2 %); looked-at 9000–9059 unchanged (96.9 %,
  /// ROM 0.72 → 0.70); tune 201–600 invented 17 → 16, missed 244 both.
  private static func isDrop(_ s: TimedHeight, below track: [TimedHeight], sigma: Double) -> Bool {
    guard let lowest = track.map(\.cm).min() else { return false }
    return s.cm < lowest - (marginCm + sigmas * sigma)
  }

  /// Whether `s` carries on from `newest` at the speed the bar needed to
  /// get there from `from`, rather than from the track without it.
  private static func carriesOn(
    _ s: TimedHeight, from: TimedHeight, to newest: TimedHeight, track: [TimedHeight],
    acceleration: Double, noiseCm: Double
  ) -> Bool {
    let speed = newest.t > from.t ? (newest.cm - from.cm) / (newest.t - from.t) : 0
    let onward = newest.cm + speed * (s.t - newest.t)
    let dt = s.t - newest.t
    let without = prediction(track, at: s.t)
    return abs(s.cm - onward)
      <= marginCm + sigmas * max(without.sigma, noiseCm) + 0.5 * acceleration * dt * dt
      && abs(s.cm - onward) < abs(s.cm - without.cm)
  }

  /// Whether `s` lies where the track, with `newest` added, says the bar
  /// goes next, as a reading passed on at once must.
  private static func continues(_ s: TimedHeight, track: [TimedHeight], through newest: TimedHeight)
    -> Bool
  {
    let line = prediction(Array(track.dropFirst()) + [newest], at: s.t)
    return abs(s.cm - line.cm)
      <= gate(line, typicalAccelerationCmPerS2, s.t, atMostPeriods: promptPeriods)
  }

  /// The readings rejected since the track's last one that lie on the
  /// bar's way from there to `h`, a reading now accepted after them: a
  /// bar leaving its bottom faster than the track's line could bend
  /// (a bounce read 4 cm low, then 16 cm above it 0.04 s later) had its
  /// whole ramp rejected reading by reading, and the top, let in as far
  /// enough ahead, was joined to the bottom by nothing (independent
  /// looked-at 70081: a 1.4-m/s squat lost). All of them or none: each
  /// between the two ends, none going back the other way by more than the
  /// noise, none steeper than the fastest bar (`maxSpeedCmPerS`) from the
  /// one before, and together spread over the way (`bridgeSpreadShare`).
  private func bridge(to h: TimedHeight) -> [TimedHeight] {
    guard let a = lastAccepted, !offTrack.isEmpty, offTrack.allSatisfy({ $0.t > a.t && $0.t < h.t })
    else { return [] }
    let slack = Self.marginCm + Self.sigmas * noiseCm
    let direction: Double = h.cm >= a.cm ? 1 : -1
    let levels = offTrack.map(\.cm)
    guard abs(h.cm - a.cm) > 2 * slack, let highest = levels.max(), let lowest = levels.min(),
      highest - lowest >= Self.bridgeSpreadShare * abs(h.cm - a.cm)
    else { return [] }
    var previous = a
    for r in offTrack + [h] {
      let step = r.cm - previous.cm
      guard r.cm >= min(h.cm, a.cm) - slack,
        r.cm <= max(h.cm, a.cm) + slack,
        direction * step >= -slack,
        abs(step) - slack <= Self.maxSpeedCmPerS * (r.t - previous.t)
      else { return [] }
      previous = r
    }
    return offTrack
  }

  /// The sonar answered nothing (its no-echo value, out of the plausible
  /// range): see `noEchoSinceAccepted`.
  mutating func noteNoEcho() {
    noEchoSinceAccepted = true
  }

  /// End of data: a held reading was plausible, so it stays; readings still
  /// gathering for a track stay if they agree with each other.
  mutating func flush(emit: (TimedHeight) -> Void) {
    endProbation(emit: emit)
    if let h = held { accept(h, emit: emit) }
    if let c = confirmer { accept(c, emit: emit) }
    held = nil
    confirmer = nil
    if Self.agree(bootstrap) {
      for b in bootstrap { emit(b) }
    } else {
      removed += bootstrap.count
    }
    bootstrap.removeAll(keepingCapacity: true)
    track.removeAll(keepingCapacity: true)
    offTrack.removeAll(keepingCapacity: true)
  }

  // MARK: - Track

  private mutating func accept(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    if let run = acceptedRun, frozenInMotion(speed: run.speed), stuckSince != nil,
      abs(s.cm - run.start.cm) > StuckReadings.reach(after: s.t - lastAcceptedT)
    {
      thawedT = s.t
    }
    offTrack.removeAll(keepingCapacity: true)
    noEchoSinceAccepted = false
    append(s, to: &track, limit: Self.trackReadings)
    if track.count >= 2 {
      let a = track[0]
      trackSpeed = s.t > a.t ? (s.cm - a.cm) / (s.t - a.t) : 0
    }
    lastAccepted = s
    if acceptedRun?.start.cm != s.cm {
      acceptedRun = (s, trackSpeed, 1)
    } else {
      acceptedRun?.count += 1
    }
    if probation != nil {
      probation?.held.append(s)
    } else {
      emit(s)
    }
  }

  /// A repeat of one value whose run began, off the track, farther from
  /// the last accepted reading than the fastest bar (`maxSpeedCmPerS`)
  /// goes in the time between: an HC-SR04 stuck on an echo (a plate or a
  /// hand held under it while the bar rests on the hooks), not a bar. A
  /// bar that moved there while its readings were lost arrives along a
  /// path, and its readings are not one value. Dropped without a word to
  /// the re-anchoring or a new track, up to `maxStuckS` after the last
  /// accepted reading (a bar that really stopped there stays longer).
  private func stuckRepeat(_ s: TimedHeight) -> Bool {
    guard let run, let last = lastAccepted, run.t > last.t, s.t > run.t,
      s.t - last.t < Self.maxStuckS
    else { return false }
    return abs(run.cm - last.cm) > Self.marginCm + Self.maxSpeedCmPerS * (run.t - last.t)
  }

  /// Readings that all repeat one value, soon after the track was moving
  /// or on a clip whose readings repeat by chance too rarely
  /// (`stuckNoiseCm`): a stuck sonar, not a bar. A bar resting at 138 cm
  /// (millimetres, σ 1.2 cm) under a burst of echoes, then 57.3 six times:
  /// the run started a track after the silence, and the bar's return to
  /// 138 cm was a 81 cm "squat" (tune sensor-faults 236). Tune seeds
  /// 201–600: 2 streams changed, that report gone, summed MV error −0.01.
  private func stuck(_ points: some Collection<TimedHeight>) -> Bool {
    guard let first = points.first, let last = points.max(by: { $0.t < $1.t }) else {
      return false
    }
    return (abs(trackSpeed) > Self.stuckSpeedCmPerS || repeatsAreRare)
      && last.t - lastAcceptedT < Self.maxStuckS
      && points.allSatisfy { $0.cm == first.cm }
  }

  private mutating func reject(_ s: TimedHeight) {
    removed += 1
    if let last = offTrack.last, s.t - last.t > Self.staleS { offTrack.removeAll() }
    if offTrack.isEmpty { occluder = occludes(s) ? s : nil }
    offTrack.append(s)
    // Off-track readings that agree among themselves for long enough were
    // the bar all along: the track was wrong. Those that agree are passed
    // on (`push`), not only followed: a squat's bottom read for 0.2 s after
    // a sonar frozen on the way down (121 cm, then 77 75 76 76 and the
    // drive) became the track, but no reading of it reached the rep's
    // measurer, and the rep, its bottom unseen, was lost (independent
    // looked-at 220131, 200005, 550064). 13,740 looked-at: missed 891 →
    // 881, invented 163 → 165 (echo runs of four readings under a dirty
    // floor's lockouts passed on: 730088, 760057), no set unchanged; ours
    // tune 201–1000 missed 288 → 280, held-out 23 → 21, nothing invented;
    // seventeen held-out missed 119 → 117. Passing on the whole off-track
    // run when it lies on one line: a false set in ours (tune 601–1000).
    let recent = offTrack.suffix(Self.reanchorReadings)
    if recent.count == Self.reanchorReadings, let first = offTrack.first,
      s.t - first.t >= Self.reanchorS, occluder.map({ s.t - $0.t >= Self.maxOcclusionS }) ?? true,
      Self.agree(Array(recent)), !stuck(recent)
    {
      track = Array(recent)
      trackSince = s.t
      reanchoredWay = Array(recent)
      offTrack.removeAll(keepingCapacity: true)
    } else if offTrack.count > 64 {
      offTrack.removeFirst(offTrack.count - Self.reanchorReadings)
    }
  }

  /// Whether `s`, the first of a run of rejected readings, lies under the
  /// bar (`maxOcclusionS`): below where it could have fallen to since the
  /// track's newest reading, and clear of the track's readings by a run's
  /// width. Not under a stuck sonar's repeats, which bound no fall.
  private func occludes(_ s: TimedHeight) -> Bool {
    guard track.count >= 2, let last = track.last, !trackIsOneValue, stuckSince == nil,
      s.t - trackSince >= Self.occlusionTrustS, let lowest = track.lazy.map(\.cm).min()
    else { return false }
    let reach = Self.fallReach(Self.prediction(track, at: s.t), noiseCm: noiseCm)
    return s.cm + Self.occluderBandCm < min(lowest, last.cm - reach)
  }

  /// No track yet (the start, or after a silence): the first readings that
  /// agree with each other start one, and those before them go.
  private mutating func start(with s: TimedHeight, emit: (TimedHeight) -> Void) {
    append(s, to: &bootstrap, limit: .max)
    if bootstrap.count > Self.bootstrapReadings {
      bootstrap.removeFirst()
      removed += 1
    }
    guard bootstrap.count == Self.bootstrapReadings, Self.agree(bootstrap), !stuck(bootstrap)
    else { return }
    trackSince = s.t
    for b in bootstrap { accept(b, emit: emit) }
    bootstrap.removeAll(keepingCapacity: true)
  }

  private func append(_ s: TimedHeight, to list: inout [TimedHeight], limit: Int) {
    list.append(s)
    if list.count > limit { list.removeFirst() }
  }

  // MARK: - Prediction

  struct Prediction {
    var cm: Double
    /// How far ahead of the track's newest reading, and how long the track is.
    var ahead: Double
    var span: Double
    var sigma: Double
    /// The line's slope (cm/s).
    var slope: Double
    /// The track's mean sample spacing.
    var spacing: Double

    /// The deviation of the line's slope when its readings scatter by
    /// `sigma`: σ·√(12 / (n·span²)) for a line through n readings.
    func slopeSigma(_ sigma: Double) -> Double {
      guard span > 0 else { return 0 }
      let n = spacing > 0 ? span / spacing + 1 : 1
      return sigma * (12 / (n * span * span)).squareRoot()
    }
  }

  /// The least-squares line through `points`, evaluated at `t`.
  static func prediction(_ points: [TimedHeight], at t: Double) -> Prediction {
    let newest = points[points.count - 1].t
    var sx = 0.0
    var sy = 0.0
    var sxx = 0.0
    var sxy = 0.0
    for p in points {
      let x = p.t - newest
      sx += x
      sy += p.cm
      sxx += x * x
      sxy += x * p.cm
    }
    let n = Double(points.count)
    let det = n * sxx - sx * sx
    let slope = det > 1e-12 ? (n * sxy - sx * sy) / det : 0
    let intercept = (sy - slope * sx) / n
    var ss = 0.0
    for p in points {
      let r = p.cm - (intercept + slope * (p.t - newest))
      ss += r * r
    }
    let sigma = n > 2 ? (ss / (n - 2)).squareRoot() : sigmaRangeCm.upperBound
    return Prediction(
      cm: intercept + slope * (t - newest), ahead: t - newest,
      span: newest - points[0].t,
      sigma: min(max(sigma, sigmaRangeCm.lowerBound), sigmaRangeCm.upperBound), slope: slope,
      spacing: points.count > 1 ? (newest - points[0].t) / (n - 1) : 0)
  }

  /// How far a reading may sit from the line when the bar accelerates at
  /// `a`: a line fitted over a span lags a curving path by about
  /// a·span²/12 at its end, its slope by a·span/2, and the path bends
  /// ½·a·dt² more before the reading.
  static func gate(
    _ p: Prediction, _ a: Double, _ t: Double, atMostPeriods periods: Double = .infinity
  ) -> Double {
    let dt = min(max(p.ahead, 0), periods * p.spacing)
    let bend = a * (0.5 * dt * dt + 0.5 * p.span * dt + p.span * p.span / 12)
    return marginCm + sigmas * p.sigma + bend
  }

  /// How far below the line a reading may sit when the bar fell freely
  /// from the track's newest reading at the track's speed: what gravity
  /// adds in the time since, plus the noise and the uncertainty of the
  /// fitted speed (σ·√(12 / (n·span²)) for a line through n readings).
  static func fallGate(_ p: Prediction) -> Double {
    let dt = max(p.ahead, 0)
    return marginCm + sigmas * p.sigma + 0.5 * maxDownwardAccelerationCmPerS2 * dt * dt
      + sigmas * p.slopeSigma(p.sigma) * dt
  }

  /// How far below the track's newest reading the bar can be `p.ahead`
  /// later: fallen freely from there at the line's downward speed, give or
  /// take the noise and the uncertainty of that speed. From the newest
  /// reading, not the line (`fallGate`): a line through a rise that is
  /// braking for its lockout runs above the bar, and one through a bar
  /// that stopped runs below it (see `maxDownwardAccelerationCmPerS2`).
  static func fallReach(_ p: Prediction, noiseCm: Double) -> Double {
    let dt = max(p.ahead, 0)
    return marginCm + sigmas * max(p.sigma, noiseCm) + max(-p.slope, 0) * dt
      + 0.5 * maxDownwardAccelerationCmPerS2 * dt * dt + sigmas * p.slopeSigma(p.sigma) * dt
  }

  /// Readings a bar could have produced one after the other: each close to
  /// the line through all of them, and that line no faster than a bar.
  static func agree(_ points: [TimedHeight]) -> Bool {
    guard points.count >= 2 else { return false }
    let newest = points[points.count - 1].t
    let oldest = points[0].t
    guard newest > oldest else {
      return points.allSatisfy { abs($0.cm - points[0].cm) <= marginCm }
    }
    let line = prediction(points, at: newest)
    let slope = (line.cm - prediction(points, at: oldest).cm) / (newest - oldest)
    // Nor at a speed no bar reaches: three echoes off legs and plates
    // (23, 58, 136 cm in 0.15 s) can lie on a line, and started a track
    // at 7 m/s under a bar resting on the hooks (then a "rep"). Tune
    // seeds 201–600: reports that were no set 36 → 33, sensor-faults
    // 87.4 → 88.4 % exact.
    if abs(slope) > maxSpeedCmPerS { return false }
    for p in points {
      let onLine = line.cm + slope * (p.t - newest)
      if abs(p.cm - onLine) > marginCm { return false }
    }
    return true
  }
}
