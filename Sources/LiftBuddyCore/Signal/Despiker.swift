/// Removes what the sonar reports but the bar cannot have done.
///
/// An HC-SR04 fails in recognisable ways: single wild readings (0 for a lost
/// echo, 400+ when nothing answers, the distance to a foot or a plate),
/// several such readings in a row, and a value that sticks while the bar
/// moves. A bar cannot move 4 m/s or teleport, so each reading is gated by
/// how far the bar could have gone since the last good one. Readings that
/// fail the gate are held back: if the signal comes back to the bar they
/// were spikes; if they agree with each other long enough, the reference
/// was wrong (the stream started on a spike, or the bar moved during a
/// dropout) and they become the new truth.
struct Despiker: Sendable {
  /// HC-SR04 datasheet: 2 cm to 400 cm. Outside that it is no measurement.
  static let validRange = 2.0...400.0
  /// No barbell lift reaches 4 m/s (peak velocities of the fastest jumps
  /// and snatches stay under ~3.5 m/s); anything faster is a fault.
  static let maxSpeedCmPerS = 400.0
  /// Allowance for sonar noise and integer-cm quantisation on top of the
  /// motion gate: several standard deviations of a typical HC-SR04 (~0.5 cm).
  static let noiseMarginCm = 4.0
  /// Held readings that agree with each other (each within the gate of the
  /// one before) for this long replace the reference. Longer than a
  /// typical spiky region (2–8 readings at 15–40 Hz), short enough to follow
  /// the bar after a dropout.
  static let reacquireS = 0.45
  static let reacquireCount = 5
  /// A value repeated this many times may be stuck.
  static let stuckMinRepeats = 3
  /// A repeated value is held at most this long before it is believed: a
  /// bar at rest reads the same centimetre for seconds.
  static let stuckMaxHoldS = 0.6
  /// A bar at rest cannot cover more than ½·a·t² in the next sample; 30 m/s²
  /// is above the hardest turnaround. A jump beyond that after a repeated
  /// value means the value was stuck while the bar moved.
  static let maxAccelerationCmPerS2 = 3000.0

  private var reference: TimedHeight? = nil
  private var rejected: [TimedHeight] = []
  private var repeats: [TimedHeight] = []

  /// Readings removed so far (out of range, failed gate, stuck).
  private(set) var removed = 0

  init() {
    rejected.reserveCapacity(32)
    repeats.reserveCapacity(64)
  }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    guard Self.validRange.contains(s.cm) else {
      removed += 1
      return
    }
    guard let ref = reference else {
      accept(s, emit: emit)
      return
    }
    if !withinGate(s, of: ref) {
      hold(s, emit: emit)
      return
    }
    // Back on the bar: whatever was held was spikes.
    removed += rejected.count
    rejected.removeAll(keepingCapacity: true)

    if s.cm == ref.cm {
      repeats.append(s)
      if let first = repeats.first, s.t - first.t > Self.stuckMaxHoldS {
        releaseRepeats(emit: emit)
      }
      return
    }
    if repeats.count >= Self.stuckMinRepeats - 1, let lastRepeat = repeats.last {
      // The value changed after repeating: a bar that was really at rest
      // starts moving gently; a stuck sensor catches up in one jump.
      let dt = s.t - lastRepeat.t
      let restLimit = 0.5 * Self.maxAccelerationCmPerS2 * dt * dt + Self.noiseMarginCm
      if abs(s.cm - ref.cm) > restLimit {
        removed += repeats.count
        repeats.removeAll(keepingCapacity: true)
        accept(s, emit: emit)
        return
      }
    }
    releaseRepeats(emit: emit)
    accept(s, emit: emit)
  }

  /// Releases held repeats (end of stream or a quiet source).
  mutating func flush(emit: (TimedHeight) -> Void) {
    releaseRepeats(emit: emit)
  }

  private func withinGate(_ s: TimedHeight, of ref: TimedHeight) -> Bool {
    let dt = max(s.t - ref.t, 0)
    return abs(s.cm - ref.cm) <= Self.maxSpeedCmPerS * dt + Self.noiseMarginCm
  }

  private mutating func hold(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    if let last = rejected.last, !withinGate(s, of: last) {
      // Inconsistent with the other held readings: a spike among spikes.
      removed += rejected.count
      rejected.removeAll(keepingCapacity: true)
    }
    rejected.append(s)
    if rejected.count >= Self.reacquireCount, let first = rejected.first,
      s.t - first.t >= Self.reacquireS
    {
      // They agree with each other for long enough: they are the bar.
      repeats.removeAll(keepingCapacity: true)
      let held = rejected
      rejected.removeAll(keepingCapacity: true)
      reference = nil
      for r in held { accept(r, emit: emit) }
    }
  }

  private mutating func releaseRepeats(emit: (TimedHeight) -> Void) {
    for r in repeats { emit(r) }
    if let lastRepeat = repeats.last { reference = lastRepeat }
    repeats.removeAll(keepingCapacity: true)
  }

  private mutating func accept(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    reference = s
    emit(s)
  }
}
