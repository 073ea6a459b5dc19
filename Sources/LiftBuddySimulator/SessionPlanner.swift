import Foundation
import LiftBuddyCore

/// The bar's whole session as planned: its true trajectory and what each
/// stretch of it was meant to be.
public struct SessionPlan: Sendable {
  public var profile: ExerciseProfile
  public var trajectory: BarTrajectory
  public var sets: [SetPlan]
  public var nonReps: [NonRepPlan]
  /// When the recording stops, in sample-clock seconds.
  public var durationS: Double
  /// What only the sensor sees (clip handling, echo trouble, air).
  public var sensor = SensorArtifacts()
}

/// Lays out a session move by move on the sample clock: idle, set-up, reps,
/// re-rack, rest, and again. Every figure drawn here is a range a coach
/// would recognise; the reasons sit beside the constants.
struct SessionPlanner {
  /// Bar racked before the lifter touches it, at the start of the recording.
  static let leadInS: ClosedRange<Double> = 2...5
  /// After the last set, before the recording stops.
  static let leadOutS: ClosedRange<Double> = 3...8
  static let restBetweenSetsS: ClosedRange<Double> = 60...180
  /// How far the bar rises when it leaves the hooks (and falls back onto them).
  static let rackLiftCm: ClosedRange<Double> = 3...8
  static let rackMoveS: ClosedRange<Double> = 0.6...1.2
  static let walkOutS: ClosedRange<Double> = 2...4
  static let walkWobbleCm: ClosedRange<Double> = 1...2
  static let adjustmentCm: ClosedRange<Double> = 2...6
  static let eccentricS: ClosedRange<Double> = 0.8...2.5
  static let bottomPauseS: ClosedRange<Double> = 0.3...1.5
  static let topPauseS: ClosedRange<Double> = 0.3...3
  /// A bounce: the lowering and the drive overlap by this long, so velocity
  /// passes through zero with the acceleration still high.
  static let bounceOverlapS: ClosedRange<Double> = 0.06...0.2
  /// Velocity lost per rep to fatigue.
  static let fatiguePerRep: ClosedRange<Double> = 0.02...0.08
  static let grinderVelocityMps: ClosedRange<Double> = 0.15...0.3
  static let peakToMean: ClosedRange<Double> = 1.4...2.0
  /// Rep-to-rep depth variation (1 σ, cm) and its bound.
  static let romJitterCm = 1.0
  static let romJitterLimitCm = 3.0
  /// Lifters differ around the load–velocity line by about 6 % (1 σ).
  static let lifterSpread = 0.06
  /// Rep-to-rep scatter of velocity beyond fatigue (1 σ).
  static let repSpread = 0.02
  /// Each later set starts this much slower: rests of 1–3 min do not fully
  /// restore a lifter.
  static let slowdownPerSet = 0.03
  /// Bracing between the set-up moves and the first rep.
  static let setUpToFirstRepS: ClosedRange<Double> = 1...2.5
  /// Standing at lockout after the last rep before walking the bar in.
  static let holdAfterLastRepS: ClosedRange<Double> = 0.5...2
  static let beforeRerackS: ClosedRange<Double> = 0.2...0.8
  static let adjustmentMoveS: ClosedRange<Double> = 0.3...0.6
  /// Chance of a re-grip dip in a top pause long enough for one.
  static let adjustmentBetweenRepsChance = 0.12

  let request: SimulationRequest
  let profile: ExerciseProfile
  var rng: SeededRandom
  var pulses: [VelocityPulse] = []
  var nonReps: [NonRepPlan] = []
  var sets: [SetPlan] = []
  var t = 0.0
  /// The bar's planned height after every move so far (scenario planner).
  var level = 0.0
  var sensor = SensorArtifacts()

  init(request: SimulationRequest) {
    self.request = request
    profile = .of(request.exercise)
    rng = SeededRandom(seed: request.seed, stream: 1)
  }

  mutating func plan() -> SessionPlan {
    if let style = request.style { return styledPlan(style) }
    let restHeight = rng.uniform(profile.restHeightCm)
    let romBase = rng.uniform(profile.romCm)
    let rackLift = rng.uniform(Self.rackLiftCm)
    let usesHooks = request.rackMoves && profile.isRacked
    let lifterVelocity = min(
      max(
        profile.firstRepVelocity(loadKg: request.loadKg) * (1 + Self.lifterSpread * rng.gaussian()),
        ExerciseProfile.firstRepVelocityMps.lowerBound),
      ExerciseProfile.firstRepVelocityMps.upperBound)

    t = rng.uniform(Self.leadInS)
    for setIndex in 0..<max(request.sets, 0) {
      if setIndex > 0 {
        let rest = rng.uniform(Self.restBetweenSetsS)
        nonReps.append(NonRepPlan(kind: .rest, startS: t, endS: t + rest))
        t += rest
      }
      if usesHooks { unrack(rackLift) } else if request.rackMoves { deadliftSetUp() }
      hold(rng.uniform(Self.setUpToFirstRepS))
      // Later sets start a little slower: the lifter is not fully recovered.
      let firstVelocity = lifterVelocity * (1 - Self.slowdownPerSet * Double(setIndex))
      let reps =
        profile.exercise.isEccentricFirst
        ? eccentricFirstSet(romBase: romBase, firstVelocity: firstVelocity)
        : concentricFirstSet(romBase: romBase, firstVelocity: firstVelocity)
      sets.append(SetPlan(loadKg: request.loadKg, reps: reps))
      if usesHooks {
        rerack(rackLift)
      } else if request.rackMoves, profile.exercise == .deadlift {
        settle()
      }
    }
    t += rng.uniform(Self.leadOutS)
    let base = usesHooks ? restHeight - rackLift : restHeight
    return SessionPlan(
      profile: profile, trajectory: BarTrajectory(baseHeightCm: base, pulses: pulses), sets: sets,
      nonReps: nonReps, durationS: t)
  }

  // MARK: Sets

  private mutating func eccentricFirstSet(romBase: Double, firstVelocity: Double) -> [RepPlan] {
    let fatigue = rng.uniform(Self.fatiguePerRep)
    var reps: [RepPlan] = []
    for i in 1...max(request.reps, 1) {
      let rom = repRom(romBase)
      let eccentric = pulse(at: t, displacement: -rom, duration: rng.uniform(Self.eccentricS))
      pulses.append(eccentric)
      let grinder = request.grinder && i == request.reps
      let velocity = repVelocity(first: firstVelocity, fatigue: fatigue, index: i, grinder: grinder)
      let concentric = concentricPulses(rom: rom, velocity: velocity, grinder: grinder)
      let start = bottomTurn(after: eccentric, before: concentric[0])
      let shifted = concentric.map { shiftedPulse($0, by: start) }
      pulses.append(contentsOf: shifted)
      let end = shifted.map(\.end).max() ?? start
      reps.append(
        RepPlan(
          index: i, eccentricStart: eccentric.start, concentricPulseStart: start,
          concentricPulseEnd: end,
          trailingEccentricEnd: nil, isGrinder: grinder))
      t = end
      if i < request.reps { topPause() }
    }
    hold(rng.uniform(Self.holdAfterLastRepS))
    return reps
  }

  private mutating func concentricFirstSet(romBase: Double, firstVelocity: Double) -> [RepPlan] {
    let fatigue = rng.uniform(Self.fatiguePerRep)
    var reps: [RepPlan] = []
    var previousEccentric: VelocityPulse?
    for i in 1...max(request.reps, 1) {
      let rom = repRom(romBase)
      let grinder = request.grinder && i == request.reps
      let velocity = repVelocity(first: firstVelocity, fatigue: fatigue, index: i, grinder: grinder)
      let concentric = concentricPulses(rom: rom, velocity: velocity, grinder: grinder)
      let start = previousEccentric.map { bottomTurn(after: $0, before: concentric[0]) } ?? t
      let shifted = concentric.map { shiftedPulse($0, by: start) }
      pulses.append(contentsOf: shifted)
      let end = shifted.map(\.end).max() ?? start
      let lockout = rng.uniform(Self.topPauseS)
      let eccentric = pulse(
        at: end + lockout, displacement: -rom, duration: rng.uniform(Self.eccentricS))
      pulses.append(eccentric)
      reps.append(
        RepPlan(
          index: i, eccentricStart: nil, concentricPulseStart: start, concentricPulseEnd: end,
          trailingEccentricEnd: eccentric.end, isGrinder: grinder))
      previousEccentric = eccentric
      t = eccentric.end
    }
    hold(rng.uniform(Self.holdAfterLastRepS))
    return reps
  }

  // MARK: Reps

  mutating func repRom(_ base: Double) -> Double {
    let jitter = min(
      max(Self.romJitterCm * rng.gaussian(), -Self.romJitterLimitCm), Self.romJitterLimitCm)
    return base + jitter
  }

  mutating func repVelocity(first: Double, fatigue: Double, index: Int, grinder: Bool)
    -> Double
  {
    if grinder { return rng.uniform(Self.grinderVelocityMps) }
    let faded = first * pow(1 - fatigue, Double(index - 1))
    return max(faded * (1 + Self.repSpread * rng.gaussian()), Self.grinderVelocityMps.upperBound)
  }

  /// The drive, starting at time 0 (the caller shifts it into place). A
  /// grinder is two overlapping pushes: the first dies out before the
  /// second has built up, which is what a sticking point looks like.
  mutating func concentricPulses(rom: Double, velocity: Double, grinder: Bool)
    -> [VelocityPulse]
  {
    let duration = rom / 100 / velocity
    guard grinder else { return [pulse(at: 0, displacement: rom, duration: duration)] }
    let firstShare = rng.uniform(0.3...0.45)
    let firstDuration = duration * rng.uniform(0.3...0.4)
    let secondStart = firstDuration * rng.uniform(0.55...0.75)
    let first = VelocityPulse(
      start: 0, duration: firstDuration, displacementCm: rom * firstShare, rise: 0.4, fall: 0.5)
    let second = VelocityPulse(
      start: secondStart, duration: duration - secondStart, displacementCm: rom * (1 - firstShare),
      rise: rng.uniform(0.4...0.5), fall: 0.45, smoothStop: rng.uniform(0...1))
    return [first, second]
  }

  /// When the drive starts: after a pause, or before the lowering has quite
  /// finished (a bounce), never overlapping more than the two ramps allow.
  mutating func bottomTurn(after eccentric: VelocityPulse, before drive: VelocityPulse)
    -> Double
  {
    if request.paused { return eccentric.end + rng.uniform(Self.bottomPauseS) }
    return overlappedStart(after: eccentric, before: drive)
  }

  /// When a move that follows `previous` without a pause begins: before
  /// `previous` has quite stopped (`bounceOverlapS`), never overlapping
  /// more than the two ramps that meet allow.
  mutating func overlappedStart(after previous: VelocityPulse, before next: VelocityPulse)
    -> Double
  {
    let room = 0.8 * min(previous.fall * previous.duration, next.rise * next.duration)
    return previous.end - min(rng.uniform(Self.bounceOverlapS), room)
  }

  mutating func topPause() {
    let pause = rng.uniform(Self.topPauseS)
    if request.rackMoves, pause > 1.5, rng.chance(Self.adjustmentBetweenRepsChance) {
      let start = t + 0.3
      t = start
      dipAndReturn(rng.uniform(Self.adjustmentCm), kind: .adjustment)
      t = max(t, start + pause - 0.3)
    } else {
      hold(pause)
    }
  }

  // MARK: Moves that are not reps

  mutating func unrack(_ lift: Double) {
    let start = t
    move(by: lift, over: rng.uniform(Self.rackMoveS))
    nonReps.append(NonRepPlan(kind: .unrack, startS: start, endS: t))
    if profile.hasWalkOut { wobble(kind: .walkOut) }
  }

  mutating func rerack(_ lift: Double) {
    if profile.hasWalkOut { wobble(kind: .walkIn) }
    hold(rng.uniform(Self.beforeRerackS))
    let start = t
    move(by: -lift, over: rng.uniform(Self.rackMoveS))
    nonReps.append(NonRepPlan(kind: .rerack, startS: start, endS: t))
  }

  /// A deadlifter often breaks the bar off the floor and sets it back while
  /// finding the grip.
  mutating func deadliftSetUp() {
    guard rng.chance(0.6) else { return }
    dipAndReturn(-rng.uniform(Self.adjustmentCm), kind: .adjustment)
  }

  /// Bumper plates bounce once or twice when the bar is dropped to the floor.
  mutating func settle() {
    let start = t
    var height = rng.uniform(0.8...2.5)
    for _ in 0..<rng.integer(1...2) {
      let up = rng.uniform(0.1...0.18)
      move(by: height, over: up)
      move(by: -height, over: up)
      height *= 0.4
    }
    nonReps.append(NonRepPlan(kind: .settle, startS: start, endS: t))
    hold(rng.uniform(0.5...1.5))
  }

  /// Steps with the bar: small vertical wobble that ends where it began.
  mutating func wobble(kind: NonRepPlan.Kind) {
    let start = t
    let steps = rng.integer(3...6)
    let stepS = rng.uniform(Self.walkOutS) / Double(steps)
    var offset = 0.0
    for step in 0..<steps {
      let target = step == steps - 1 ? 0 : rng.sign() * rng.uniform(Self.walkWobbleCm)
      move(by: target - offset, over: stepS)
      offset = target
    }
    nonReps.append(NonRepPlan(kind: kind, startS: start, endS: t))
  }

  /// Down `depth` and back (negative: up and back).
  mutating func dipAndReturn(_ depth: Double, kind: NonRepPlan.Kind) {
    let start = t
    move(by: -depth, over: rng.uniform(Self.adjustmentMoveS))
    hold(rng.uniform(0...0.3))
    move(by: depth, over: rng.uniform(Self.adjustmentMoveS))
    nonReps.append(NonRepPlan(kind: kind, startS: start, endS: t))
  }

  // MARK: Primitives

  mutating func hold(_ seconds: Double) { t += seconds }

  mutating func move(by cm: Double, over seconds: Double) {
    pulses.append(
      VelocityPulse(start: t, duration: seconds, displacementCm: cm, rise: 0.5, fall: 0.5))
    t += seconds
    level += cm
  }

  /// A lift's pulse: peak-to-mean ratio drawn in 1.4–2 (force–velocity
  /// studies of squat, bench and pull), a stop anywhere from creeping to
  /// abrupt (`creepShare`), and the accelerating share of the ramps
  /// 35–60 %. The ramps' total length follows from the ratio, capped at
  /// the whole pulse.
  mutating func pulse(at start: Double, displacement: Double, duration: Double)
    -> VelocityPulse
  {
    let ratio = rng.uniform(Self.peakToMean)
    let creep = displacement > 0 ? Self.creepShare(meanMps: abs(displacement) / 100 / duration) : 1
    let smoothStop = rng.uniform(0...1) * creep
    let riseShare = rng.uniform(0.35...0.6)
    let perRamp = riseShare / 2 + (1 - riseShare) * (1 - VelocityPulse.fallArea(smoothStop))
    let ramps = min((1 - 1 / ratio) / perRamp, 1)
    return VelocityPulse(
      start: start, duration: duration, displacementCm: displacement, rise: ramps * riseShare,
      fall: ramps * (1 - riseShare), smoothStop: smoothStop)
  }

  /// How far toward a creeping stop a drive may end (the upper bound of
  /// its `smoothStop`): 0 for a fast drive, which always brakes into
  /// lockout, 1 for a slow one. A light lift's concentric ends in a braking
  /// phase, the bar decelerating faster than gravity up to the stop
  /// (Sánchez-Medina, Pérez & González-Badillo 2010, bench press: a large
  /// share of a light rep's concentric); it shortens with load and is gone
  /// near 1RM (Martínez-Cava et al. 2019), where the bar is slow. A drive
  /// is "fast" above `brakedStopMps` (about 60 % of 1RM for a bench press)
  /// and "slow" below it by
  /// `creepRangeMps` (near-maximal loads). The first simulator drew every
  /// stop from creeping to abrupt: a light rep crept to a stop as often
  /// as it braked, unlike the real presses (BENCHMARKS.md, sixteenth pass).
  static let brakedStopMps = 0.8
  static let creepRangeMps = 0.5
  static func creepShare(meanMps: Double) -> Double {
    min(max((brakedStopMps - meanMps) / creepRangeMps, 0), 1)
  }

  func shiftedPulse(_ p: VelocityPulse, by offset: Double) -> VelocityPulse {
    var p = p
    p.start += offset
    return p
  }
}
