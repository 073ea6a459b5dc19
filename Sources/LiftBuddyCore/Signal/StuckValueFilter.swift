/// Removes a value the sonar repeated while the bar moved.
///
/// An HC-SR04 that misses echoes may keep reporting its last distance; the
/// bar meanwhile moves on, and when the readings resume they jump. A bar
/// that was really at rest reads the same centimetre too, so repeats are
/// held until the next different reading tells which it was: a gentle step
/// (the bar starting to move) releases them; a jump that a bar at rest could
/// not make in one sample period means they were stuck.
struct StuckValueFilter: Sendable {
  /// A value repeated this many times (after its first reading) may be stuck.
  static let minRepeats = 2
  /// Repeats are held at most this long before they are believed: a bar at
  /// rest reads the same centimetre for seconds.
  static let maxHoldS = 0.6
  /// A bar at rest cannot cover more than ½·a·t² by the next reading; 30 m/s²
  /// is above the hardest turnaround.
  static let maxAccelerationCmPerS2 = 3000.0
  static let noiseMarginCm = MedianOutlierTest.noiseMarginCm

  private var last: TimedHeight? = nil
  private var repeats: [TimedHeight] = []
  private(set) var removed = 0

  init() {
    repeats.reserveCapacity(64)
  }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    guard let previous = last else {
      pass(s, emit: emit)
      return
    }
    if s.cm == previous.cm {
      repeats.append(s)
      if let first = repeats.first, s.t - first.t > Self.maxHoldS { release(emit: emit) }
      return
    }
    if repeats.count >= Self.minRepeats, let lastRepeat = repeats.last {
      let dt = s.t - lastRepeat.t
      let restLimit = 0.5 * Self.maxAccelerationCmPerS2 * dt * dt + Self.noiseMarginCm
      if abs(s.cm - previous.cm) > restLimit {
        removed += repeats.count
        repeats.removeAll(keepingCapacity: true)
      }
    }
    release(emit: emit)
    pass(s, emit: emit)
  }

  private mutating func pass(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    last = s
    emit(s)
  }

  mutating func flush(emit: (TimedHeight) -> Void) {
    release(emit: emit)
  }

  private mutating func release(emit: (TimedHeight) -> Void) {
    for r in repeats { emit(r) }
    repeats.removeAll(keepingCapacity: true)
  }
}
