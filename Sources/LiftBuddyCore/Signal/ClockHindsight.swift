import DequeModule

/// Sample times revised with the arrivals that came after them.
///
/// `SampleClock` times a sample when its line arrives, from the arrivals
/// before it, and errs where the link stalls: a stall that lost nothing is
/// re-anchored late, and a lost packet read as buffering puts the samples
/// before it early (over BLE its error is 31 ms at the 90th percentile and
/// 86 ms at the 99th: BENCHMARKS.md, forty-ninth pass). The arrivals after
/// a sample bound it as well: the reading `k` places later was taken `k`
/// periods after it and arrived no earlier than it was taken, so a sample
/// was taken by `arrival(i + k) − k·period`. The revised time is the least
/// of these bounds over the next `laterReadings` arrivals and its own
/// (a reading lost in between only loosens a bound, never breaks it).
///
/// The rep event cannot wait for hindsight (half a second at 20 Hz, the
/// whole latency budget), so the rules judge a rep on the provisional times
/// and the measurer measures it again on the revised ones, which are the
/// numbers reported (`Analyzer`). Measured offline first
/// (`scripts/clock-hindsight-check.py`): the revised clock halves the error
/// against the clip's own clock (15-reading span mean 12 → 7 ms, p90 33 →
/// 16) and BLE streams without that clock read MV 0.039 → 0.036 m/s.
struct ClockHindsight: Sendable {
  /// How many later arrivals bound a sample. Offline, W = 10 and 6 read
  /// alike and 3 was worse than none (PV MAE 0.122 m/s): a bound from one
  /// or two periods later is as late as the arrival itself. Ten readings
  /// are half a second at 20 Hz, which the rep's lockout has mostly passed
  /// when it is measured; the times beyond the newest revision carry its
  /// correction forward.
  static let laterReadings = 10
  /// A rep whose readings near its ends moved against each other by less
  /// than this share of a period is not measured again: the second
  /// measurement costs as much as the first. Measured against measuring
  /// again wherever any reading of the rep's buffer moved by it: the same
  /// counts and MV on the looked-at 12,000 and the held-out 3,000, and
  /// `analyze` on the 60-minute stream 4.9 → 5.4 M lines/s.
  static let minMoveShare = 0.25
  /// Revised times that tie (or cross, where the period estimate moved)
  /// are kept apart by this much: the measurer differentiates them. A
  /// tenth of the millisecond the clock is stated in.
  static let minSpacingS = 1e-4

  private var recent: Deque<(t: Double, arrival: Double, period: Double)> = []
  /// Bounded like the readings they revise: by the longest rep
  /// (`Analyzer.maxRepBufferS`) and by count (`Analyzer.maxAnswered`).
  private var revisions: Deque<(t: Double, revised: Double)> = []

  /// A sample was given time `t`, its line having arrived at `arrival`.
  ///
  /// Each bound steps back by the least period the clock measured over
  /// the readings it spans: a period measured long puts a bound early by
  /// ten times its error, and the clock's runs long while a stalled link's
  /// backlog is still in flight (with the period of the moment, a 0.4-s
  /// stall put the readings before it 33 ms early:
  /// `aStallWhoseBacklogTricklesOutIsPutBackWhereItWas`); one measured
  /// short only loosens it.
  mutating func note(t: Double, arrival: Double, period: Double) {
    recent.append((t, arrival, period))
    guard recent.count > Self.laterReadings else { return }
    let oldest = recent.removeFirst()
    var revised = oldest.arrival
    var step = oldest.period
    for (k, later) in recent.enumerated() {
      step = min(step, later.period)
      revised = min(revised, later.arrival - Double(k + 1) * step)
    }
    if revisions.count == Analyzer.maxAnswered { revisions.removeFirst() }
    revisions.append((oldest.t, revised))
    while let first = revisions.first, oldest.t - first.t > Analyzer.maxRepBufferS {
      revisions.removeFirst()
    }
  }

  /// The revised time of a sample (or of any instant) given time `t`:
  /// the correction at the samples either side, interpolated; the newest
  /// correction beyond them; `t` itself before them.
  func time(_ t: Double) -> Double {
    guard let newest = revisions.last, let oldest = revisions.first, t >= oldest.t else {
      return t
    }
    if t >= newest.t { return t + newest.revised - newest.t }
    var lo = 0
    var hi = revisions.count - 1
    while lo < hi {
      let mid = (lo + hi) / 2
      if revisions[mid].t < t { lo = mid + 1 } else { hi = mid }
    }
    let after = revisions[lo]
    guard after.t > t, lo > 0 else { return after.revised }
    let before = revisions[lo - 1]
    let share = (t - before.t) / (after.t - before.t)
    let correction =
      (before.revised - before.t) + share
      * ((after.revised - after.t) - (before.revised - before.t))
    return t + correction
  }

  /// `samples` on the revised clock, or nil where the readings `within`
  /// moved against each other by less than `minMoveShare` of a period (or
  /// nothing was revised yet): a shift they all share moves a rep's times
  /// by milliseconds and none of its numbers.
  func retimed(_ samples: [TimedHeight], period: Double, within: ClosedRange<Double>)
    -> [TimedHeight]?
  {
    guard !revisions.isEmpty else { return nil }
    // Most reps are not measured again: decide on their ends' readings
    // before revising the rest.
    var least = Double.infinity
    var most = -Double.infinity
    for s in samples where within.contains(s.t) {
      let correction = time(s.t) - s.t
      least = min(least, correction)
      most = max(most, correction)
    }
    guard most - least >= Self.minMoveShare * period else { return nil }
    var out: [TimedHeight] = []
    out.reserveCapacity(samples.count)
    for s in samples {
      var t = time(s.t)
      if let last = out.last, t < last.t + Self.minSpacingS { t = last.t + Self.minSpacingS }
      out.append(TimedHeight(t: t, cm: s.cm))
    }
    return out
  }
}
