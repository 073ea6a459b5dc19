/// What happens around and inside the sets of a scenario session, beyond the
/// reps themselves: how the bar gets to where the first rep starts, what the
/// lifter does with it between sets, and what the sensor suffers. A request
/// without a style is the original simulator (`rackMoves`, `paused`…) and
/// keeps its bytes; a style turns on the scenario planner.
///
/// The behaviours come from how lifters use a rack and a platform (strength
/// coaching texts, VBT device manuals such as GymAware's and Tendo's), not
/// from what the analyzer finds easy: every one of them moves the bar in a
/// way that is not a rep.
public struct SessionStyle: Sendable, Equatable {
  /// Where the bar is when the recording starts.
  public enum Start: String, Sendable, Equatable {
    /// Already where the first rep starts, in the lifter's hands.
    case inPosition
    /// On the rack's hooks (squat, bench, press) or on the floor (deadlift).
    case hooks
    /// On the floor in its plates (22.5 cm), away from the rack: a racked
    /// lift's bar is first lifted from the floor onto the hooks.
    case floor
  }

  /// Reps in each set, in order (its count is the number of sets).
  public var repsPerSet: [Int]
  public var restS: ClosedRange<Double> = 60...180
  public var start: Start = .hooks
  /// First rep's mean concentric velocity (m/s), overriding the load's.
  public var firstRepVelocityMps: ClosedRange<Double>? = nil
  /// Velocity lost from the first to the last rep of a set (share): sets
  /// taken close to failure lose 20–40 %.
  public var velocityLoss: ClosedRange<Double> = 0.1...0.35
  /// Chance that a set's reps pause at the bottom, and for how long.
  public var pausedChance = 0.0
  public var bottomPauseS: ClosedRange<Double> = 0.5...1.0
  /// The last rep of a set is a grinder with a sticking point.
  public var grinderChance = 0.0
  /// Chance that a set is done without a pause at either end: the bar
  /// bounces at the bottom and turns at lockout, the lowering begun before
  /// the drive has quite stopped. Lifters doing presses, squats and bench
  /// presses for reps often hold neither end (the real overhead presses in
  /// `../shared/real-data` turn at every lockout); a lockout held still is
  /// the competition rule, not the training habit.
  public var turnAtTopChance = 0.0
  /// Lifted off the hooks with a walk-out (squat, standing press).
  public var walkOut = true
  /// Re-racking lifts the bar over the hooks' lips before it sits down.
  public var overHooks = true
  /// Plates loaded (or changed) on the racked bar before each set: bumps.
  public var plateLoading = false
  /// The bar is carried to the rack (or platform) before the first set.
  public var carry = false
  /// Presses: the bar is cleaned (or pulled) from the floor to the
  /// shoulders before each set and put back down after it.
  public var cleanEachSet = false
  /// After the last set the bar goes back to the floor (off the hooks).
  public var putDownAtEnd = false
  /// Chance per set of one mid-set re-grip: a 2–3 s pause at the rep's
  /// start position with a dip and drive (press) or a wobble (bench).
  public var regripChance = 0.0
  /// Chance that the last set ends in a failed rep (partial rise, back down).
  public var failedRepChance = 0.0
  /// Seated overhead press (shoulders at 95–110 cm, hooks above them).
  public var seated = false
  /// Deadlift: chance of dropping the bar from lockout after the last rep,
  /// of each set being dead-stop (1–3 s on the floor between reps), and of
  /// rolling the bar into place or jacking it up to load plates.
  public var dropChance = 0.0
  public var deadStopChance = 0.0
  public var rollBar = false
  /// Someone clips the clip on or handles it: brief large false readings.
  public var clipHandling = false
  /// Sensor: the sonar's scale error from the air's speed of sound (1 ± 0.03),
  /// stretches where every other ping gets no echo (400 cm), and extra
  /// echoes off plates and legs.
  public var speedOfSoundScale: ClosedRange<Double> = 1...1
  public var noEchoStretches = false
  public var extraEchoes = false
  /// IMU noise (1 σ, degrees); nil keeps the clip's own draw.
  public var imuNoiseDeg: ClosedRange<Double>? = nil
  /// Sonar noise (1 σ, cm) instead of the noise level's: an HC-SR04 over a
  /// rubber mat or carpet reads 1–3 cm either way.
  public var sonarNoiseCm: ClosedRange<Double>? = nil

  public init(repsPerSet: [Int]) {
    self.repsPerSet = repsPerSet
  }
}
