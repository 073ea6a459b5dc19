/// Removes a value the sonar repeated while the bar moved.
///
/// An HC-SR04 that misses echoes may keep reporting one distance (its last,
/// or a wrong one); the bar meanwhile moves on, and when the readings resume
/// they jump. A bar that was really at rest reads the same centimetre too,
/// so a run of equal readings is held until the next different reading
/// tells which it was: a gentle step (the bar starting to move) releases
/// it; a jump that a bar at rest could not make in one sample period means
/// the repeats were stuck. The run's first reading is a real measurement
/// unless the run also jumped in: a plateau that appears and vanishes in
/// single jumps is a wrong value from start to end.
struct StuckValueFilter: Sendable {
  /// A value repeated this many times (after its first reading) may be stuck.
  static let minRepeats = 2
  /// Runs are held at most this long before they are believed: a bar at
  /// rest reads the same centimetre for seconds.
  static let maxHoldS = 0.6
  /// A bar at rest cannot cover more than ½·a·t² by the next reading; 30 m/s²
  /// is above the hardest turnaround.
  static let maxAccelerationCmPerS2 = 3000.0
  /// No barbell lift reaches 4 m/s: a faster jump into a run is no motion.
  static let maxSpeedCmPerS = 400.0
  static let noiseMarginCm = MedianOutlierTest.noiseMarginCm

  private var lastPassed: TimedHeight? = nil
  /// Readings of the current value, oldest first, not yet passed on.
  private var run: [TimedHeight] = []
  private(set) var removed = 0

  init() {
    run.reserveCapacity(64)
  }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    if let first = run.first, s.cm == first.cm {
      run.append(s)
      if s.t - first.t > Self.maxHoldS {
        // At rest: what came so far is the bar.
        release(emit: emit)
      }
      return
    }
    if run.count > Self.minRepeats, let first = run.first, let last = run.last {
      let dt = s.t - last.t
      let restLimit = 0.5 * Self.maxAccelerationCmPerS2 * dt * dt + Self.noiseMarginCm
      if abs(s.cm - first.cm) > restLimit {
        removed += run.count - 1
        let jumpedIn =
          lastPassed.map {
            abs(first.cm - $0.cm) > Self.maxSpeedCmPerS * (first.t - $0.t) + Self.noiseMarginCm
          } ?? false
        if jumpedIn {
          removed += 1
        } else {
          pass(first, emit: emit)
        }
        run.removeAll(keepingCapacity: true)
      }
    }
    release(emit: emit)
    run.append(s)
  }

  mutating func flush(emit: (TimedHeight) -> Void) {
    release(emit: emit)
  }

  private mutating func release(emit: (TimedHeight) -> Void) {
    for r in run { pass(r, emit: emit) }
    run.removeAll(keepingCapacity: true)
  }

  private mutating func pass(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    lastPassed = s
    emit(s)
  }
}
