import LiftBuddyCore

/// A named kind of session (`liftbuddy simulate --scenario NAME --seed N`):
/// the seed draws the lifter, exercise, load, transport, noise and clip, the
/// scenario fixes what happens around the sets.
///
/// Scenarios and seeds are split: tuning happens on the `tune` scenarios
/// with seeds below `heldOutSeeds.lowerBound`; the `heldout` scenarios, with
/// seeds from there up, are only ever measured, so a figure on them says
/// how the analyzer does on sessions nobody tuned it on.
public enum Scenario: String, CaseIterable, Sendable {
  case plainSet = "plain-set"
  case rackSession = "rack-session"
  case floorToRack = "floor-to-rack"
  case cleanAndPress = "clean-and-press"
  case deadliftPlatform = "deadlift-platform"
  case regripMidSet = "regrip-mid-set"
  case clipHandling = "clip-handling"
  case sensorFaults = "sensor-faults"
  case legacySweep = "legacy-sweep"
  case carryAndLoad = "carry-and-load"
  case sessionMess = "session-mess"
  case seatedPress = "seated-press"
  case heavySingles = "heavy-singles"
  case speedWork = "speed-work"
  // New scenarios go last: a scenario's place in `allCases` seeds its
  // streams, so the others keep theirs.
  case warmUp = "warm-up"
  case softFloor = "soft-floor"
  case matPlatform = "mat-platform"
  case continuousSets = "continuous-sets"

  public enum Split: String, Sendable, CaseIterable {
    case tune
    case heldout
  }

  /// Seeds of the held-out split; tuning seeds lie below.
  public static let heldOutSeeds: PartialRangeFrom<UInt64> = 5000...

  public var split: Split {
    switch self {
    case .carryAndLoad, .sessionMess, .seatedPress, .heavySingles, .speedWork, .matPlatform:
      .heldout
    default: .tune
    }
  }

  public static func scenarios(in split: Split) -> [Scenario] {
    allCases.filter { $0.split == split }
  }

  /// Whether `seed` belongs to `split`'s seeds.
  public static func seed(_ seed: UInt64, isIn split: Split) -> Bool {
    heldOutSeeds.contains(seed) == (split == .heldout)
  }

  public var summary: String {
    switch self {
    case .plainSet: "one set, bar already in the hands: reps only"
    case .rackSession:
      "3 sets off the hooks: unrack (bench ~12 cm), walk-out, re-rack over the hooks, plates loaded between sets"
    case .floorToRack:
      "the bar lifted from the floor onto the hooks before the first set, and back down after the last"
    case .cleanAndPress:
      "standing press: a clean or a pull and hang clean to the shoulders before each set, put down after"
    case .deadliftPlatform:
      "deadlifts: bar rolled and jacked for plates, set-up tugs, dead-stop or touch-and-go, dropped or lowered, bumpers settle"
    case .regripMidSet:
      "press or bench with a 2–3 s re-grip mid-set (dip and drive at the shoulders, wobble at lockout)"
    case .clipHandling: "the clip clipped on and handled: brief large false readings (52→95→52 cm)"
    case .sensorFaults:
      "dirty sonar: spikes, stuck values, dropouts, garbage lines, no-echo stretches, plate echoes, speed of sound ±3 %"
    case .legacySweep:
      "the original sweep: any exercise, transport, noise, rack moves, grinders, pauses"
    case .carryAndLoad:
      "bar carried to the rack, plates loaded with bumps, sets, carried away and put down"
    case .sessionMess:
      "everything at once: handling, clip, faults, re-grips, failed reps, several sets"
    case .seatedPress:
      "seated press: hooks above the shoulders, lift over and lower to the shoulders"
    case .heavySingles:
      "singles and doubles at 0.15–0.35 m/s, grinders, a failed attempt now and then"
    case .speedWork: "speed work: 2–3 reps at 1.0–1.6 m/s, short rests"
    case .warmUp:
      "warm-up sets with a light bar: 3–6 fast reps (0.9–1.5 m/s) off the hooks or the floor"
    case .softFloor:
      "the sonar over a rubber mat or carpet: 1.5–3 cm of noise on every reading, sets with rests"
    case .matPlatform:
      "deadlifts and cleans to the press on a matted platform: 1–3 cm of sonar noise, the bar handled"
    case .continuousSets:
      "presses, squats and bench presses for reps without a pause at either end: a bounce at the bottom, a turn at lockout"
    }
  }

  /// The stream this scenario and seed name.
  public func request(seed: UInt64) -> SimulationRequest {
    let index = UInt64(Self.allCases.firstIndex(of: self) ?? 0)
    var rng = SeededRandom(seed: seed, stream: 300 + index)
    if self == .legacySweep {
      let exercise = rng.pick(Exercise.allCases)
      let transport = rng.pick(Transport.allCases)
      let noise = rng.pick(NoiseLevel.allCases)
      var request = SweepScenario.request(
        seed: seed, exercise: exercise, transport: transport, noise: noise)
      request.scenario = rawValue
      request.streamName = "\(rawValue)-\(seed).lbs"
      return request
    }
    let exercise = drawExercise(&rng)
    // Serial is the common case; BLE clips and raw captures less so.
    let transport: Transport =
      rng.chance(0.5) ? .serial : rng.chance(0.7) ? .ble : .raw
    let noise: NoiseLevel =
      self == .sensorFaults ? .dirty : rng.pick([.clean, .typical, .typical, .dirty])
    let firmware: ClipFirmware = rng.chance(0.5) ? .liftbuddy : .original
    let profile = ExerciseProfile.of(exercise)
    let intensity = rng.uniform(SweepScenario.intensity)
    let load =
      (profile.referenceOneRepMaxKg * intensity / SweepScenario.loadStepKg).rounded()
      * SweepScenario.loadStepKg
    let style = self.style(exercise: exercise, rng: &rng)
    var request = SimulationRequest(
      exercise: exercise, reps: style.repsPerSet.first ?? 1, sets: style.repsPerSet.count,
      loadKg: load, seed: seed &* 1000 &+ 900 &+ index, transport: transport, noise: noise,
      firmware: firmware, rateHz: nil, grinder: false, paused: false, rackMoves: true,
      streamName: "\(rawValue)-\(seed).lbs")
    request.style = style
    request.scenario = rawValue
    return request
  }

  private func drawExercise(_ rng: inout SeededRandom) -> Exercise {
    switch self {
    case .cleanAndPress, .seatedPress: .overheadPress
    case .matPlatform: rng.chance(0.5) ? .deadlift : .overheadPress
    case .deadliftPlatform: .deadlift
    case .regripMidSet: rng.chance(0.6) ? .overheadPress : .benchPress
    case .rackSession, .floorToRack, .carryAndLoad:
      rng.pick([.squat, .benchPress, .overheadPress])
    case .speedWork: rng.pick([.squat, .benchPress, .deadlift])
    case .continuousSets: rng.pick([.overheadPress, .overheadPress, .benchPress, .squat])
    default: rng.pick(Exercise.allCases)
    }
  }

  private func sets(_ count: ClosedRange<Int>, reps: ClosedRange<Int>, _ rng: inout SeededRandom)
    -> [Int]
  {
    (0..<rng.integer(count)).map { _ in rng.integer(reps) }
  }

  private func style(exercise: Exercise, rng: inout SeededRandom) -> SessionStyle {
    var s: SessionStyle
    let bench = exercise == .benchPress
    switch self {
    case .plainSet:
      s = SessionStyle(repsPerSet: sets(1...1, reps: 3...10, &rng))
      s.start = .inPosition
      s.pausedChance = bench ? 0.5 : 0.2
      s.grinderChance = 0.3
    case .rackSession:
      s = SessionStyle(repsPerSet: sets(3...3, reps: 3...8, &rng))
      s.restS = 60...240
      s.plateLoading = true
      s.pausedChance = bench ? 0.5 : 0.1
      s.grinderChance = 0.25
    case .floorToRack:
      s = SessionStyle(repsPerSet: sets(1...2, reps: 3...8, &rng))
      s.start = .floor
      s.putDownAtEnd = rng.chance(0.6)
      s.plateLoading = rng.chance(0.5)
      s.grinderChance = 0.2
    case .cleanAndPress:
      s = SessionStyle(repsPerSet: sets(2...3, reps: 3...8, &rng))
      s.start = .floor
      s.cleanEachSet = true
      s.restS = 60...180
      s.grinderChance = 0.2
    case .deadliftPlatform:
      s = SessionStyle(repsPerSet: sets(2...3, reps: 1...6, &rng))
      s.start = .floor
      s.rollBar = true
      s.plateLoading = true
      s.deadStopChance = 0.5
      s.dropChance = 0.3
      s.restS = 90...240
    case .regripMidSet:
      s = SessionStyle(repsPerSet: sets(1...2, reps: 5...10, &rng))
      s.regripChance = 1
      s.pausedChance = bench ? 0.3 : 0
      s.grinderChance = 0.2
    case .clipHandling:
      s = SessionStyle(repsPerSet: sets(1...2, reps: 3...8, &rng))
      s.clipHandling = true
      s.start = exercise == .deadlift ? .floor : .hooks
    case .sensorFaults:
      s = SessionStyle(repsPerSet: sets(1...2, reps: 3...8, &rng))
      s.speedOfSoundScale = 0.97...1.03
      s.noEchoStretches = true
      s.extraEchoes = true
      s.imuNoiseDeg = 0.2...1.0
      s.grinderChance = 0.2
    case .legacySweep:
      s = SessionStyle(repsPerSet: [1])  // not used: the sweep has its own request
    case .carryAndLoad:
      s = SessionStyle(repsPerSet: sets(1...3, reps: 3...8, &rng))
      s.start = .floor
      s.carry = true
      s.plateLoading = true
      s.putDownAtEnd = true
    case .sessionMess:
      s = SessionStyle(repsPerSet: sets(2...4, reps: 1...10, &rng))
      s.start = rng.pick([.floor, .hooks, .hooks])
      s.carry = rng.chance(0.3)
      s.cleanEachSet = exercise == .overheadPress && rng.chance(0.4)
      s.plateLoading = rng.chance(0.6)
      s.putDownAtEnd = rng.chance(0.4)
      s.regripChance = 0.3
      s.failedRepChance = 0.3
      s.clipHandling = rng.chance(0.5)
      s.pausedChance = 0.3
      s.grinderChance = 0.2
      s.rollBar = true
      s.deadStopChance = 0.5
      s.dropChance = 0.3
      s.speedOfSoundScale = 0.97...1.03
      s.noEchoStretches = rng.chance(0.3)
      s.extraEchoes = rng.chance(0.3)
      s.imuNoiseDeg = 0.2...1.0
      s.velocityLoss = 0.15...0.4
    case .seatedPress:
      s = SessionStyle(repsPerSet: sets(2...3, reps: 5...10, &rng))
      s.seated = true
      s.walkOut = false
      s.velocityLoss = 0.15...0.35
    case .heavySingles:
      s = SessionStyle(repsPerSet: sets(3...5, reps: 1...2, &rng))
      s.firstRepVelocityMps = 0.15...0.35
      s.velocityLoss = 0...0.1
      s.grinderChance = 0.3
      s.failedRepChance = exercise == .benchPress || exercise == .squat ? 0.3 : 0.4
      s.restS = 120...300
      s.start = exercise == .deadlift ? .floor : .hooks
      s.rollBar = true
      s.deadStopChance = 1
    case .warmUp:
      // Warm-ups at 30–50 % of 1RM: mean velocities of about 1.0–1.3 m/s
      // in the bench press and full squat (González-Badillo & Sánchez-Medina
      // 2010, Int J Sports Med 31:347–352; Sánchez-Medina et al. 2017, Sports
      // Med Int Open 1:E80–E88), stopped far from fatigue. The simulator's
      // other sessions stay under 1.0 m/s, so without these the tune split
      // has no rep as fast as a lifter's first sets of the day.
      s = SessionStyle(repsPerSet: sets(2...3, reps: 3...6, &rng))
      s.firstRepVelocityMps = 0.9...1.5
      s.velocityLoss = 0...0.1
      s.restS = 45...120
      s.start = exercise == .deadlift ? .floor : .hooks
      s.deadStopChance = 0.5
    case .softFloor:
      // An HC-SR04 is good to a few millimetres over a hard floor; a soft
      // one scatters the echo (the datasheet's test target is a flat,
      // hard 0.5 m² surface), and the readings wander 1–3 cm.
      s = SessionStyle(repsPerSet: sets(2...3, reps: 3...8, &rng))
      s.restS = 40...120
      s.start = exercise == .deadlift ? .floor : .hooks
      s.pausedChance = bench ? 0.3 : 0.1
      s.grinderChance = 0.2
      s.sonarNoiseCm = 1.5...3.0
    case .matPlatform:
      s = SessionStyle(repsPerSet: sets(2...3, reps: 3...8, &rng))
      s.start = .floor
      s.cleanEachSet = exercise == .overheadPress
      s.restS = 40...150
      s.deadStopChance = 0.5
      s.dropChance = 0.3
      s.putDownAtEnd = true
      s.sonarNoiseCm = 1.0...3.0
      s.noEchoStretches = rng.chance(0.3)
    case .speedWork:
      s = SessionStyle(repsPerSet: sets(4...6, reps: 2...3, &rng))
      s.firstRepVelocityMps = 1.0...1.6
      s.velocityLoss = 0...0.1
      s.restS = 30...60
      s.start = exercise == .deadlift ? .floor : .hooks
      s.deadStopChance = 0.7
    case .continuousSets:
      // Sets for reps as they are trained: neither end held. A standing
      // press comes off the hooks or is cleaned from the floor first.
      s = SessionStyle(repsPerSet: sets(2...3, reps: 4...10, &rng))
      s.turnAtTopChance = 0.8
      s.restS = 40...120
      s.cleanEachSet = exercise == .overheadPress && rng.chance(0.5)
      s.start = s.cleanEachSet ? .floor : .hooks
      s.grinderChance = 0.1
    }
    return s
  }
}
