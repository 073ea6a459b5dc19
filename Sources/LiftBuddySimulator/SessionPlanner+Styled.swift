import Foundation
import LiftBuddyCore

/// The scenario planner (`SessionStyle`): a whole session as lifters run one,
/// the bar's trips to and from where the sets happen included. Heights are
/// of the bar's end above the floor, in centimetres, for adult lifters in a
/// commercial gym; the reasons sit beside the constants.
extension SessionPlanner {
  /// Hip height with the bar held at arms' length (top of a deadlift).
  static let hipHeightCm: ClosedRange<Double> = 75...90
  /// A bench press is unracked by pressing the bar up out of the J-hooks:
  /// about 12 cm (the independent streams' figure).
  static let benchUnrackCm: ClosedRange<Double> = 10...14
  /// Seated press: shoulders above the floor with the seat at ~45 cm; the
  /// hooks sit a little above the shoulders, the range a little shorter.
  static let seatedShoulderCm: ClosedRange<Double> = 95...110
  static let seatedRomCm: ClosedRange<Double> = 42...55
  static let seatedHooksAboveCm: ClosedRange<Double> = 8...15
  /// The lip of a J-hook: the bar is lifted over it before it sits down.
  static let hookLipCm: ClosedRange<Double> = 2...5
  /// Lockout pause of a concentric-first rep (deadlift, press) in a set
  /// done touch-and-go: short, as in the real press recordings (2–3 s a rep).
  static let styledLockoutS: ClosedRange<Double> = 0.2...1.2
  /// A dead-stop deadlift rests on the floor between reps.
  static let deadStopS: ClosedRange<Double> = 1...3
  /// A mid-set re-grip pause, and the dip and drive inside it.
  static let regripPauseS: ClosedRange<Double> = 2...3
  static let regripDipCm: ClosedRange<Double> = 4...10
  /// A failed rep rises this share of the range, slowly, and stalls.
  static let failedShare: ClosedRange<Double> = 0.3...0.6
  static let failedVelocityMps: ClosedRange<Double> = 0.08...0.15
  static let failedStallS: ClosedRange<Double> = 0.3...1.0
  /// Safety pins sit this far under a squat's bottom.
  static let pinsBelowBottomCm: ClosedRange<Double> = 3...8
  /// Walking with the bar: step frequency and bob.
  static let stepHz: ClosedRange<Double> = 1.6...2.0
  static let carryBobCm: ClosedRange<Double> = 1...3
  static let carrySteps: ClosedRange<Int> = 6...16
  /// Plates on a racked bar: the clip's end levers by this much while only
  /// one side is loaded, and each plate bumps the bar.
  static let leverCm: ClosedRange<Double> = 0.5...2
  static let plateBumpCm: ClosedRange<Double> = 0.5...2.5
  static let platesPerSide: ClosedRange<Int> = 1...4
  static let betweenPlatesS: ClosedRange<Double> = 3...8
  /// A deadlift jack lifts the bar's end this much.
  static let jackCm: ClosedRange<Double> = 5...9
  /// A hand or a body in front of the sonar while the clip is handled.
  static let clipHumpCm: ClosedRange<Double> = 20...45
  static let clipHumpS: ClosedRange<Double> = 0.2...0.8
  /// The bar's peak velocity in a clean's second pull: 1.74 ± 0.30 m/s at a
  /// hang power clean's 1RM (Suchomel et al. 2024, J Strength Cond Res
  /// 38:1321), 1.69 m/s in a mid-thigh pull at 40 % (Comfort et al. 2012,
  /// J Strength Cond Res 26:1208); a light bar a little faster. (The clean
  /// used to be drawn over 0.3–0.45 s: up to 6.4 m/s, which no bar reaches.)
  static let cleanPeakVelocityMps: ClosedRange<Double> = 1.5...2.5
  /// The bar drops into the catch no faster than it falls: a raised-cosine
  /// move of d metres peaks at 2πd/T² (m/s²), so it takes at least
  /// √(2πd/g).
  static let gravityMps2 = 9.80665
  /// The share of a clean's first pull the second pull overlaps: the bar
  /// never stops at the knees (at 35 % the summed velocity dips to about
  /// two thirds of the first pull's peak, the double knee bend's dip).
  static let pullOverlapShare = 0.35
  static let slowestStyledVelocityMps = 0.12
  /// Clean and press: the bar rests on blocks or low pins instead of the
  /// floor; a clean is put back down and done again; a dip and drive sets
  /// the bar in the rack position before the first press.
  static let blocksChance = 0.4
  static let blocksCm: ClosedRange<Double> = 40...55
  static let abortedCleanChance = 0.25
  static let setUpDipChance = 0.5

  mutating func styledPlan(_ style: SessionStyle) -> SessionPlan {
    let exercise = request.exercise
    let floor = ExerciseProfile.plateRadiusCm
    let seated = style.seated && exercise == .overheadPress
    let repStart = seated ? rng.uniform(Self.seatedShoulderCm) : rng.uniform(profile.restHeightCm)
    let romBase = seated ? rng.uniform(Self.seatedRomCm) : rng.uniform(profile.romCm)
    let hips = rng.uniform(Self.hipHeightCm)
    let hooks: Double
    switch exercise {
    case .benchPress: hooks = repStart - rng.uniform(Self.benchUnrackCm)
    case .overheadPress where seated: hooks = repStart + rng.uniform(Self.seatedHooksAboveCm)
    case .deadlift: hooks = floor
    default: hooks = repStart - rng.uniform(Self.rackLiftCm)
    }
    let racked = exercise != .deadlift && !style.cleanEachSet
    // Presses cleaned from where the bar rests: the floor, or low blocks or
    // pins (the real press recordings start from about 50 cm).
    let barRest =
      style.cleanEachSet && rng.chance(Self.blocksChance) ? rng.uniform(Self.blocksCm) : floor
    let startLevel: Double
    switch style.start {
    case .inPosition: startLevel = repStart
    case .hooks: startLevel = racked ? hooks : barRest
    case .floor: startLevel = barRest
    }
    level = startLevel
    let lifterVelocity =
      style.firstRepVelocityMps.map { rng.uniform($0) }
      ?? min(
        max(
          profile.firstRepVelocity(loadKg: request.loadKg)
            * (1 + Self.lifterSpread * rng.gaussian()),
          ExerciseProfile.firstRepVelocityMps.lowerBound),
        ExerciseProfile.firstRepVelocityMps.upperBound)
    sensor.speedOfSoundScale = rng.uniform(style.speedOfSoundScale)
    sensor.echoFactor = style.extraEchoes ? 3 : 1

    t = rng.uniform(Self.leadInS)
    if style.clipHandling { handleClip() }
    // Getting the bar to where the sets happen (a clean-and-press bar stays
    // where it rests until its first clean).
    if style.carry || (style.start == .floor && racked) {
      if level < hips - 10 { liftAlone(to: hips, over: rng.uniform(0.8...1.4), kind: .pickUp) }
      if style.carry { carry() }
      if racked {
        liftOntoHooks(hooks)
      } else {
        liftAlone(to: barRest, over: rng.uniform(0.8...1.3), kind: .putDown)
        if barRest <= floor { settle() }
      }
      hold(rng.uniform(3...12))
    }

    let setCount = style.repsPerSet.count
    var walkedOut = false
    for (setIndex, repCount) in style.repsPerSet.enumerated() {
      if setIndex > 0 {
        let rest = rng.uniform(style.restS)
        let restEnd = t + rest
        nonReps.append(NonRepPlan(kind: .rest, startS: t, endS: restEnd))
        hold(rest * rng.uniform(0.3...0.6))
        if style.clipHandling, rng.chance(0.5) { handleClip() }
        if style.plateLoading { loadPlates() }
        t = max(t, restEnd)
      } else if style.plateLoading, style.start != .inPosition {
        loadPlates()
        hold(rng.uniform(2...6))
      }
      // To where the first rep starts.
      if setIndex == 0, style.start == .inPosition {
        // Already in the hands.
      } else if style.cleanEachSet {
        if rng.chance(Self.abortedCleanChance) {
          // Up to the shoulders, not happy with the rack position, back down.
          clean(to: repStart, hips: hips)
          hold(rng.uniform(0.5...2))
          putDown(hips: hips, to: barRest)
          hold(rng.uniform(2...6))
        }
        clean(to: repStart, hips: hips)
        if rng.chance(Self.setUpDipChance) { regripAtBottom() }
      } else if racked {
        walkedOut = unrackStyled(to: repStart, seated: seated, walkOut: style.walkOut)
      } else {
        if style.rollBar, rng.chance(0.7) { rollBar() }
        if rng.chance(0.5) { dipAndReturn(-rng.uniform(Self.adjustmentCm), kind: .adjustment) }
      }
      hold(rng.uniform(Self.setUpToFirstRepS))

      let firstVelocity = lifterVelocity * (1 - Self.slowdownPerSet * Double(setIndex))
      let options = SetOptions(
        reps: max(repCount, 1), romBase: romBase, firstVelocity: firstVelocity,
        loss: rng.uniform(style.velocityLoss), paused: rng.chance(style.pausedChance),
        bottomPauseS: exercise == .deadlift ? Self.deadStopS : style.bottomPauseS,
        grinder: rng.chance(style.grinderChance),
        regripAfter: repCount >= 3 && rng.chance(style.regripChance)
          ? rng.integer(1...(repCount - 1)) : nil,
        fails: setIndex == setCount - 1 && rng.chance(style.failedRepChance),
        drops: exercise == .deadlift && rng.chance(style.dropChance),
        // Drawn last and only where a style asks: other scenarios keep
        // their streams.
        turnsAtTop: style.turnAtTopChance > 0 && rng.chance(style.turnAtTopChance))
      var setOptions = options
      if setOptions.turnsAtTop { setOptions.paused = false }
      // A deadlift set is dead-stop (paused on the floor) or touch-and-go.
      if exercise == .deadlift { setOptions.paused = rng.chance(style.deadStopChance) }
      let outcome =
        exercise.isEccentricFirst
        ? styledEccentricFirstSet(setOptions) : styledConcentricFirstSet(setOptions)
      sets.append(SetPlan(loadKg: request.loadKg, reps: outcome.reps))

      // Back to where the bar rests.
      if outcome.onPins {
        hold(rng.uniform(5...15))
        let start = t
        move(by: hooks + rng.uniform(Self.hookLipCm) - level, over: rng.uniform(1.0...1.8))
        hold(rng.uniform(0.2...0.5))
        move(by: hooks - level, over: rng.uniform(0.3...0.6))
        nonReps.append(NonRepPlan(kind: .offPins, startS: start, endS: t))
      } else if style.cleanEachSet {
        putDown(hips: hips, to: barRest)
      } else if racked {
        rerackStyled(hooks, walkedIn: walkedOut, overHooks: style.overHooks)
      } else {
        settle()
      }
    }
    if style.putDownAtEnd, racked {
      hold(rng.uniform(5...20))
      let start = t
      move(by: rng.uniform(Self.hookLipCm), over: rng.uniform(0.3...0.6))
      nonReps.append(NonRepPlan(kind: .unrack, startS: start, endS: t))
      putDown(hips: hips, to: floor)
    }
    t += rng.uniform(Self.leadOutS)
    if style.noEchoStretches {
      for _ in 0..<rng.integer(2...4) {
        let start = rng.uniform(0...max(t - 4, 1))
        sensor.noEchoWindows.append(start...(start + rng.uniform(1...4)))
      }
    }
    sensor.imuNoiseDeg = style.imuNoiseDeg
    if let sonarNoise = style.sonarNoiseCm { sensor.sonarNoiseCm = rng.uniform(sonarNoise) }
    return SessionPlan(
      profile: profile, trajectory: BarTrajectory(baseHeightCm: startLevel, pulses: pulses),
      sets: sets, nonReps: nonReps, durationS: t, sensor: sensor)
  }

  // MARK: Sets

  /// What one styled set does, drawn before it starts.
  struct SetOptions {
    var reps: Int
    var romBase: Double
    var firstVelocity: Double
    /// Share of velocity lost from the first rep to the last.
    var loss: Double
    var paused: Bool
    var bottomPauseS: ClosedRange<Double>
    var grinder: Bool
    /// A re-grip pause after this rep (1-based), before the next.
    var regripAfter: Int?
    /// One more rep after the last that does not lock out.
    var fails: Bool
    /// Deadlift: the last rep's bar is dropped from lockout.
    var drops: Bool
    /// No pause at the top: the lowering begins as the drive ends.
    var turnsAtTop = false

    /// Per-rep factor so that the last rep has lost `loss`.
    var fatiguePerRep: Double {
      reps > 1 ? 1 - pow(1 - loss, 1 / Double(reps - 1)) : 0
    }
  }

  struct SetOutcome {
    var reps: [RepPlan]
    /// A failed squat left the bar on the safety pins.
    var onPins = false
  }

  private mutating func styledVelocity(_ o: SetOptions, index: Int) -> (Double, Bool) {
    let grinder = o.grinder && index == o.reps
    if grinder { return (min(rng.uniform(Self.grinderVelocityMps), o.firstVelocity), true) }
    let faded = o.firstVelocity * pow(1 - o.fatiguePerRep, Double(index - 1))
    return (
      max(faded * (1 + Self.repSpread * rng.gaussian()), Self.slowestStyledVelocityMps), false
    )
  }

  private mutating func styledBottomTurn(
    after eccentric: VelocityPulse, before drive: VelocityPulse, _ o: SetOptions
  ) -> Double {
    if o.paused { return eccentric.end + rng.uniform(o.bottomPauseS) }
    return overlappedStart(after: eccentric, before: drive)
  }

  mutating func styledEccentricFirstSet(_ o: SetOptions) -> SetOutcome {
    var reps: [RepPlan] = []
    var rom = o.romBase
    var turnFrom: VelocityPulse? = nil
    for i in 1...o.reps {
      rom = repRom(o.romBase)
      var eccentric = pulse(at: t, displacement: -rom, duration: rng.uniform(Self.eccentricS))
      // A set done without pauses: the lowering overlaps the drive's end
      // as a bounce at the bottom overlaps the drive's start.
      if let drive = turnFrom { eccentric.start = overlappedStart(after: drive, before: eccentric) }
      pulses.append(eccentric)
      let (velocity, grinder) = styledVelocity(o, index: i)
      let concentric = concentricPulses(rom: rom, velocity: velocity, grinder: grinder)
      let start = styledBottomTurn(after: eccentric, before: concentric[0], o)
      let shifted = concentric.map { shiftedPulse($0, by: start) }
      pulses.append(contentsOf: shifted)
      let end = shifted.map(\.end).max() ?? start
      reps.append(
        RepPlan(
          index: i, eccentricStart: eccentric.start, concentricPulseStart: start,
          concentricPulseEnd: end, trailingEccentricEnd: nil, isGrinder: grinder))
      t = end
      turnFrom = nil
      if i < o.reps {
        if o.regripAfter == i {
          regripAtTop()
        } else if o.turnsAtTop, shifted.count == 1 {
          turnFrom = shifted[0]
        } else {
          hold(rng.uniform(Self.topPauseS))
        }
      }
    }
    var outcome = SetOutcome(reps: reps)
    if o.fails {
      hold(rng.uniform(Self.topPauseS))
      let eccentric = pulse(at: t, displacement: -rom, duration: rng.uniform(Self.eccentricS))
      pulses.append(eccentric)
      t = eccentric.end + rng.uniform(0...0.2)
      // The failed rep is the rise that did not lock out (the lowering
      // before it is an ordinary eccentric).
      let start = t
      let partial = rom * rng.uniform(Self.failedShare)
      let up = partial / 100 / rng.uniform(Self.failedVelocityMps)
      pulses.append(
        VelocityPulse(start: t, duration: up, displacementCm: partial, rise: 0.3, fall: 0.5))
      t += up + rng.uniform(Self.failedStallS)
      if request.exercise == .squat {
        // Down onto the safety pins; the lifter crawls out.
        let pins = rng.uniform(Self.pinsBelowBottomCm)
        pulses.append(
          VelocityPulse(
            start: t, duration: rng.uniform(0.6...1.0), displacementCm: -(partial + pins),
            rise: 0.4, fall: 0.4))
        t = pulses[pulses.count - 1].end
        level -= rom + pins
        nonReps.append(NonRepPlan(kind: .failedRep, startS: start, endS: t))
        outcome.onPins = true
      } else {
        nonReps.append(NonRepPlan(kind: .failedRep, startS: start, endS: t))
        // The spotter and the lifter grind it up together.
        let assist = rom - partial
        let duration = assist / 100 / rng.uniform(0.12...0.25)
        let assistStart = t
        pulses.append(
          VelocityPulse(start: t, duration: duration, displacementCm: assist, rise: 0.4, fall: 0.4))
        t += duration
        nonReps.append(NonRepPlan(kind: .assistedRise, startS: assistStart, endS: t))
      }
    }
    hold(rng.uniform(Self.holdAfterLastRepS))
    return outcome
  }

  mutating func styledConcentricFirstSet(_ o: SetOptions) -> SetOutcome {
    var reps: [RepPlan] = []
    var previousEccentric: VelocityPulse?
    var rom = o.romBase
    for i in 1...o.reps {
      rom = repRom(o.romBase)
      let (velocity, grinder) = styledVelocity(o, index: i)
      let concentric = concentricPulses(rom: rom, velocity: velocity, grinder: grinder)
      var start = t
      if let previous = previousEccentric {
        if o.regripAfter == i - 1 {
          t = previous.end
          regripAtBottom()
          start = t
        } else {
          start = styledBottomTurn(after: previous, before: concentric[0], o)
        }
      }
      let shifted = concentric.map { shiftedPulse($0, by: start) }
      pulses.append(contentsOf: shifted)
      let end = shifted.map(\.end).max() ?? start
      let lockout = rng.uniform(Self.styledLockoutS)
      let dropped = o.drops && i == o.reps
      // A dropped bar falls from the hips in about a third of a second.
      let lowering = dropped ? rng.uniform(0.3...0.45) : rng.uniform(Self.eccentricS)
      var eccentric = pulse(at: end + lockout, displacement: -rom, duration: lowering)
      if o.turnsAtTop, !dropped, shifted.count == 1 {
        eccentric.start = overlappedStart(after: shifted[0], before: eccentric)
      }
      pulses.append(eccentric)
      if dropped {
        nonReps.append(NonRepPlan(kind: .drop, startS: eccentric.start, endS: eccentric.end))
      }
      reps.append(
        RepPlan(
          index: i, eccentricStart: nil, concentricPulseStart: start, concentricPulseEnd: end,
          trailingEccentricEnd: eccentric.end, isGrinder: grinder))
      previousEccentric = eccentric
      t = eccentric.end
    }
    if o.fails {
      hold(rng.uniform(o.bottomPauseS.lowerBound...3))
      let start = t
      let partial = rom * rng.uniform(Self.failedShare)
      let up = partial / 100 / rng.uniform(Self.failedVelocityMps)
      pulses.append(
        VelocityPulse(start: t, duration: up, displacementCm: partial, rise: 0.3, fall: 0.5))
      t += up + rng.uniform(Self.failedStallS)
      move(by: -partial, over: rng.uniform(0.6...1.2))
      level += partial
      nonReps.append(NonRepPlan(kind: .failedRep, startS: start, endS: t))
    }
    hold(rng.uniform(Self.holdAfterLastRepS))
    return SetOutcome(reps: reps)
  }

  // MARK: Moves around the sets

  /// A one-way move to `height`, recorded as `kind`.
  mutating func liftAlone(to height: Double, over seconds: Double, kind: NonRepPlan.Kind) {
    let start = t
    move(by: height - level, over: seconds)
    nonReps.append(NonRepPlan(kind: kind, startS: start, endS: t))
  }

  /// Walking with the bar: it bobs with each step and ends where it began.
  mutating func carry() {
    let start = t
    let halfStep = 0.5 / rng.uniform(Self.stepHz)
    for _ in 0..<rng.integer(Self.carrySteps) {
      let bob = rng.uniform(Self.carryBobCm)
      move(by: bob, over: halfStep)
      move(by: -bob, over: halfStep)
    }
    nonReps.append(NonRepPlan(kind: .carry, startS: start, endS: t))
  }

  /// From the hips up over the hooks' lips and down onto them.
  mutating func liftOntoHooks(_ hooks: Double) {
    let start = t
    move(by: hooks + rng.uniform(Self.hookLipCm) - level, over: rng.uniform(0.5...1.0))
    hold(rng.uniform(0.2...0.5))
    move(by: hooks - level, over: rng.uniform(0.3...0.6))
    nonReps.append(NonRepPlan(kind: .floorToRack, startS: start, endS: t))
  }

  /// Off the hooks to where reps start: stand up under it (squat, press),
  /// press it out of the J-hooks (bench), or lift it over the lips and lower
  /// it to the shoulders (seated press). Returns whether the lifter walked.
  mutating func unrackStyled(to repStart: Double, seated: Bool, walkOut: Bool) -> Bool {
    let start = t
    if seated {
      move(by: rng.uniform(Self.hookLipCm), over: rng.uniform(0.4...0.8))
      move(by: repStart - level, over: rng.uniform(0.6...1.0))
    } else {
      move(by: repStart - level, over: rng.uniform(Self.rackMoveS))
    }
    nonReps.append(NonRepPlan(kind: .unrack, startS: start, endS: t))
    let walks = walkOut && profile.hasWalkOut && !seated
    if walks { wobble(kind: .walkOut) }
    return walks
  }

  mutating func rerackStyled(_ hooks: Double, walkedIn: Bool, overHooks: Bool) {
    if walkedIn { wobble(kind: .walkIn) }
    hold(rng.uniform(Self.beforeRerackS))
    let start = t
    if overHooks {
      move(
        by: max(level, hooks) + rng.uniform(Self.hookLipCm) - level, over: rng.uniform(0.3...0.7))
      hold(rng.uniform(0...0.3))
    }
    move(by: hooks - level, over: rng.uniform(Self.rackMoveS))
    nonReps.append(NonRepPlan(kind: .rerack, startS: start, endS: t))
  }

  /// Floor to shoulders: a power clean from the floor, or a pull to the
  /// hips first and a hang clean from there. The bar overshoots the
  /// shoulders a little, drops into the catch and rises as the lifter stands.
  mutating func clean(to shoulders: Double, hips: Double) {
    let start = t
    if rng.chance(0.4) {
      liftAlone(to: hips, over: rng.uniform(0.9...1.3), kind: .pickUp)
      hold(rng.uniform(0.5...1.5))
      move(by: -rng.uniform(10...18), over: rng.uniform(0.3...0.45))
    } else {
      // The first pull runs into the second without a stop: the bar slows
      // a little as the knees pass under it and speeds up again.
      let firstPullS = rng.uniform(0.5...0.8)
      move(by: rng.uniform(25...35), over: firstPullS)
      t -= Self.pullOverlapShare * firstPullS
    }
    let catchDrop = rng.uniform(3...8)
    // A raised-cosine move peaks at twice its mean velocity.
    let pull = shoulders + rng.uniform(2...6) - level
    move(by: pull, over: 2 * pull / 100 / rng.uniform(Self.cleanPeakVelocityMps))
    let drop = catchDrop + rng.uniform(0...8)
    let freeFallS = (2 * Double.pi * drop / 100 / Self.gravityMps2).squareRoot()
    move(by: -drop, over: max(rng.uniform(0.15...0.25), freeFallS))
    move(by: shoulders - level, over: rng.uniform(0.6...1.0))
    nonReps.append(NonRepPlan(kind: .clean, startS: start, endS: t))
  }

  /// Shoulders (or hooks) to the hips, then down to `rest` (the floor, where
  /// the bumpers settle, or blocks).
  mutating func putDown(hips: Double, to rest: Double) {
    let start = t
    if level > hips + 5 { move(by: hips - level, over: rng.uniform(0.5...0.9)) }
    hold(rng.uniform(0.3...1.0))
    move(by: rest - level, over: rng.uniform(0.8...1.3))
    nonReps.append(NonRepPlan(kind: .putDown, startS: start, endS: t))
    if rest <= ExerciseProfile.plateRadiusCm { settle() }
  }

  /// Plates slid on: each bumps the bar; the clip's end levers up or down
  /// while only one side carries the new plate. A deadlift bar is jacked up.
  mutating func loadPlates() {
    let start = t
    let jacked = request.exercise == .deadlift
    var jack = 0.0
    if jacked {
      jack = rng.uniform(Self.jackCm)
      move(by: jack, over: rng.uniform(0.5...1.0))
    }
    for _ in 0..<rng.integer(Self.platesPerSide) {
      let lever = jacked ? 0 : rng.sign() * rng.uniform(Self.leverCm)
      let bump = rng.uniform(Self.plateBumpCm)
      move(by: bump + lever, over: rng.uniform(0.08...0.15))
      move(by: -bump, over: rng.uniform(0.1...0.2))
      hold(rng.uniform(Self.betweenPlatesS))
      // The other side's plate: its bump, and the lever undone.
      let other = rng.uniform(Self.plateBumpCm)
      move(by: other - lever, over: rng.uniform(0.08...0.15))
      move(by: -other, over: rng.uniform(0.1...0.2))
      hold(rng.uniform(Self.betweenPlatesS))
    }
    if jacked { move(by: -jack, over: rng.uniform(0.3...0.6)) }
    nonReps.append(NonRepPlan(kind: jacked ? .jack : .plateLoading, startS: start, endS: t))
  }

  /// Someone clips the clip on or fiddles with it: two to four brief false
  /// readings while the bar itself stays put.
  mutating func handleClip() {
    let start = t
    for _ in 0..<rng.integer(2...4) {
      hold(rng.uniform(0.1...0.6))
      let length = rng.uniform(Self.clipHumpS)
      sensor.humps.append(
        SensorArtifacts.Hump(
          start: t, end: t + length, peakCm: rng.sign() * rng.uniform(Self.clipHumpCm)))
      hold(length)
    }
    nonReps.append(NonRepPlan(kind: .clipHandling, startS: start, endS: t))
    hold(rng.uniform(1...3))
  }

  /// The bar rolled into place on the floor: height unchanged.
  mutating func rollBar() {
    let start = t
    hold(rng.uniform(1...2))
    nonReps.append(NonRepPlan(kind: .roll, startS: start, endS: t))
    hold(rng.uniform(0.5...1.5))
  }

  /// A press re-grip at the shoulders: a knee dip and drive (the bar pops
  /// up off the shoulders and settles back), inside a 2–3 s pause; a
  /// deadlift's grip reset on the floor.
  mutating func regripAtBottom() {
    let start = t
    let pause = rng.uniform(Self.regripPauseS)
    hold(rng.uniform(0.3...0.6))
    if request.exercise == .deadlift {
      // On the floor the grip is reset with a tug: the bar breaks off the
      // floor by a centimetre or two and is set back.
      let tug = rng.uniform(1...3)
      move(by: tug, over: rng.uniform(0.2...0.4))
      move(by: -tug, over: rng.uniform(0.2...0.4))
      t = max(t + 0.1, start + pause)
      nonReps.append(NonRepPlan(kind: .regrip, startS: start, endS: t))
      return
    }
    let dip = rng.uniform(Self.regripDipCm)
    let pop = rng.uniform(2...6)
    move(by: -dip, over: rng.uniform(0.25...0.35))
    move(by: dip + pop, over: rng.uniform(0.2...0.3))
    move(by: -pop, over: rng.uniform(0.3...0.5))
    t = max(t + 0.1, start + pause)
    nonReps.append(NonRepPlan(kind: .regrip, startS: start, endS: t))
  }

  /// A re-grip at lockout (bench, squat): the hands shift, the bar wobbles.
  mutating func regripAtTop() {
    let start = t
    let pause = rng.uniform(Self.regripPauseS)
    hold(0.3)
    let wobble = rng.uniform(1...3)
    move(by: -wobble, over: rng.uniform(0.3...0.5))
    move(by: wobble, over: rng.uniform(0.3...0.5))
    t = max(t + 0.1, start + pause)
    nonReps.append(NonRepPlan(kind: .regrip, startS: start, endS: t))
  }
}
