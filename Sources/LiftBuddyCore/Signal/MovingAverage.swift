import DequeModule

/// The clip's original smoother: the mean of the samples in a trailing
/// window of fixed duration (in seconds, not in samples, because the sample
/// rate varies between clips and drops during dropouts).
///
/// The mean of a window is placed at the mean time of its samples, where it
/// is an unbiased estimate of a bar moving at constant speed, so the output
/// lags the input by about half a window and needs no separate delay
/// compensation.
struct MovingAverage: Sendable {
  let windowS: Double
  private var window: Deque<TimedHeight> = []
  private var sumT = 0.0
  private var sumCm = 0.0
  private var added = 0

  /// Running sums drift by rounding; recomputing them now and then keeps the
  /// error at the last bit for streams of any length.
  static let resumEvery = 4096

  init(windowS: Double) {
    self.windowS = windowS
  }

  /// Adds a sample and returns the smoothed point.
  mutating func push(_ s: TimedHeight) -> TimedHeight {
    window.append(s)
    sumT += s.t
    sumCm += s.cm
    while let first = window.first, s.t - first.t > windowS {
      sumT -= first.t
      sumCm -= first.cm
      window.removeFirst()
    }
    added += 1
    if added % Self.resumEvery == 0 {
      sumT = window.reduce(0) { $0 + $1.t }
      sumCm = window.reduce(0) { $0 + $1.cm }
    }
    let n = Double(window.count)
    return TimedHeight(t: sumT / n, cm: sumCm / n)
  }

  mutating func reset() {
    window.removeAll(keepingCapacity: true)
    sumT = 0
    sumCm = 0
  }
}
