/// Rejects a reading that sits far from the median of the readings around
/// it (a Hampel identifier over a centred window).
///
/// A median ignores anything that is less than half of its window, so a
/// wild reading, or a run of several, cannot drag the reference with it the
/// way a running gate or average is dragged; and it needs no state that a
/// bad start or a dropout could leave wrong. For a bar in steady motion the
/// middle reading *is* the median, so only curvature (a turnaround) and
/// sensor noise separate a good reading from it, which bounds the threshold.
/// Costs half a window of latency.
struct MedianOutlierTest: Sendable {
  /// Readings in the window: up to 5 consecutive in-range bad readings
  /// (spiky regions are 2–8 readings, and the HC-SR04's 0 and no-echo
  /// values among them are removed by the range check before this).
  static let window = 11
  static let half = window / 2
  /// Sonar noise and integer-cm quantisation: several σ of a typical HC-SR04.
  static let noiseMarginCm = 4.0
  /// No barbell lift reaches 4 m/s: the gate at the stream's edges.
  static let maxSpeedCmPerS = 400.0
  /// How far a good reading can sit from the median at a turnaround:
  /// ½·a·(w/4)², with a = 20 m/s², above the hardest bounce out of a squat,
  /// and w the window's duration (the median is about a quarter window away).
  static let turnaroundAccelerationCmPerS2 = 2000.0
  /// A good reading at a turnaround sits about 0.6 interquartile ranges of
  /// its window from the median (the window is a parabola there).
  static let spreadFactor = 0.75
  /// The window is a trend, not a turnaround, when its two halves' medians
  /// differ by at least this share of its interquartile range (a straight
  /// line's halves differ by more than its IQR; a parabola's by nothing).
  static let trendShareOfSpread = 0.5
  /// Curvature allowed along a trend: 10 m/s² covers the bottom of a brisk
  /// rep; the spread cap keeps a spike inside a fast rise from passing.
  static let trendAccelerationCmPerS2 = 1000.0
  static let trendSpreadFactor = 0.5

  private var ring = [TimedHeight](repeating: TimedHeight(t: 0, cm: 0), count: window)
  private var count = 0  // readings in the ring (≤ window)
  private var head = 0  // index of the oldest
  private var tested = 0  // readings of the ring already tested, from the oldest
  private(set) var removed = 0

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    if count == Self.window {
      // The oldest was tested when it was the middle; it leaves.
      head = (head + 1) % Self.window
      count -= 1
      tested -= 1
    }
    ring[(head + count) % Self.window] = s
    count += 1
    // Test every reading that now has its full right half (or, at the
    // start of the stream, as much window as there is).
    while tested < count - Self.half {
      test(tested, emit: emit)
      tested += 1
    }
  }

  /// End of data: the last readings are tested with the window they have.
  mutating func flush(emit: (TimedHeight) -> Void) {
    while tested < count {
      test(tested, emit: emit)
      tested += 1
    }
    count = 0
    head = 0
    tested = 0
  }

  private mutating func test(_ index: Int, emit: (TimedHeight) -> Void) {
    let lo = max(0, index - Self.half)
    let hi = min(count - 1, index + Self.half)
    let s = ring[(head + index) % Self.window]
    let n = hi - lo + 1
    var sorted = Window()
    for i in 0..<n { sorted.insert(ring[(head + lo + i) % Self.window].cm) }
    let median = sorted.median
    let deviation = abs(s.cm - median)
    if deviation <= Self.noiseMarginCm {
      emit(s)
      return
    }
    // Off the median. In a trend (the bar moving one way) a good reading
    // lies on the line through the medians of the two half-windows; at a
    // turnaround the halves agree and the curvature allowance applies.
    var left = Window()
    var right = Window()
    var leftT = 0.0
    var rightT = 0.0
    for i in lo..<index {
      let r = ring[(head + i) % Self.window]
      left.insert(r.cm)
      leftT += r.t
    }
    if index < hi {
      for i in (index + 1)...hi {
        let r = ring[(head + i) % Self.window]
        right.insert(r.cm)
        rightT += r.t
      }
    }
    guard left.count > 0, right.count > 0 else {
      // The stream's first or last readings: half a window is missing, so
      // neither the median nor a trend is known. A reading the bar could
      // have reached from its nearest neighbour stays.
      let neighbour = ring[(head + (index == lo ? min(index + 1, hi) : index - 1)) % Self.window]
      let dt = abs(s.t - neighbour.t)
      if neighbour.t == s.t
        || abs(s.cm - neighbour.cm) <= Self.maxSpeedCmPerS * dt + Self.noiseMarginCm
      {
        emit(s)
      } else {
        removed += 1
      }
      return
    }
    do {
      let tl = leftT / Double(left.count)
      let tr = rightT / Double(right.count)
      let ml = left.median
      let mr = right.median
      let iqr = sorted.interquartileRange
      if tr > tl {
        // A trend curves too: allow the chord's bend at a brisk but common
        // acceleration, and never more than the window's spread allows.
        let onLine = ml + (mr - ml) * (s.t - tl) / (tr - tl)
        let bend = 0.5 * Self.trendAccelerationCmPerS2 * max(s.t - tl, 0) * max(tr - s.t, 0)
        if abs(s.cm - onLine) <= Self.noiseMarginCm + min(bend, Self.trendSpreadFactor * iqr) {
          emit(s)
          return
        }
      }
      guard abs(mr - ml) < Self.trendShareOfSpread * iqr else {
        removed += 1
        return
      }
    }
    // A turnaround (or an edge of the stream): the readings curve.
    let span = ring[(head + hi) % Self.window].t - ring[(head + lo) % Self.window].t
    let quarter = span / 4
    let allowance = min(
      0.5 * Self.turnaroundAccelerationCmPerS2 * quarter * quarter,
      Self.spreadFactor * sorted.interquartileRange)
    if deviation <= Self.noiseMarginCm + allowance {
      emit(s)
    } else {
      removed += 1
    }
  }
}

/// Up to `MedianOutlierTest.window` values kept sorted on insertion, on
/// the stack: the test runs for every sonar reading.
private struct Window {
  private var v = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
  private(set) var count = 0

  mutating func insert(_ x: Double) {
    withUnsafeMutableBytes(of: &v) { raw in
      let a = raw.bindMemory(to: Double.self)
      var j = count - 1
      while j >= 0, a[j] > x {
        a[j + 1] = a[j]
        j -= 1
      }
      a[j + 1] = x
    }
    count += 1
  }

  subscript(i: Int) -> Double {
    withUnsafeBytes(of: v) { $0.bindMemory(to: Double.self)[i] }
  }

  var median: Double {
    count % 2 == 1 ? self[count / 2] : (self[count / 2 - 1] + self[count / 2]) / 2
  }

  var interquartileRange: Double {
    self[(3 * (count - 1)) / 4] - self[(count - 1) / 4]
  }
}
