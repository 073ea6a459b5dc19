/// A rep whose drive the sonar did not see arrive at its lockout, timed by
/// its set's reps it did see.
///
/// The sonar can go silent over a whole drive: frozen on one value (the
/// HC-SR04's hang), answering with no echo, or with echoes the measurer
/// takes out. The rep is still counted, its ends read either side of the
/// silence, but the silence then times it: a 0.55-s squat at 1.14 m/s in a
/// speed set whose 1.1-s freeze hid the whole drive was reported at 0.39
/// (blind 7000009), and such a rep would trip the velocity-loss cue. Its
/// range is still known; its duration is not. The lifter's other reps in
/// the same set, same load, took about as long, so the rep's mean velocity
/// is its range over their duration (the longest of the last few: a set
/// slows with fatigue, and the median read the unseen reps 0.018 m/s
/// fast on average, the longest −0.007), never over less than the readings
/// either side of the silence took, nor more than the span they bound.
///
/// Only where the silence is most of the phase and the bar came out of it
/// already near its top: a silence over the middle of a drive whose last
/// part was read still leaves the lockout to the fit (SampleStreams
/// scenario-plain-set rep 8, read again from 59 % of its range: 0.584 m/s
/// against 0.583, 0.693 if timed by its set).
///
/// The report's interval stays the span the readings bound (the rep lay
/// within it: moved inside it, a lockout placed by the set's duration
/// missed the rep altogether in 2 of 54 such reps), so its mean velocity
/// is the range over the set's duration, not over that span.
///
/// MV MAE of the reps paired with their truth, blind looked-at 7000000–
/// (240 streams, 3,228 reps): 0.0402 → 0.0377 m/s (dirty 0.0756 → 0.0680,
/// typical 0.0340 → 0.0321, clean unchanged; bias +0.006 → +0.010, the
/// unseen reps no longer pulling it down); independent looked-at 3,960
/// streams: 0.0330 → 0.0326 (bias −0.0046 → −0.0040). No count moved
/// (BENCHMARKS.md, sixtieth pass).
enum UnseenRamp {
  /// A phase is unseen where one silence is more than this share of it:
  /// the silence, not the bar, then sets its duration. Shares of 0.4 and
  /// 0.6 moved the looked-at MAE by ±0.0003 m/s.
  static let maxSilenceShare = 0.5
  /// The bar came out of the silence at its lockout when its first reading
  /// after it was already this share of the range up from the phase's
  /// start: the drive's arrival at the top went unseen.
  static let unseenTopShare = 0.75
  /// The set's seen reps that time it: the latest few, as a set slows
  /// with fatigue (velocity loss of 20–40 % within a set), the slowest of
  /// them.
  static let timingReps = 3

  /// A phase's longest silence, and whether the bar was already near its
  /// top when it was read again.
  struct Unseen: Equatable, Sendable {
    var lengthS = 0.0
    var hidTop = false
  }

  /// The longest silence in `report`'s concentric phase among `readings`.
  static func longestSilence(in readings: [TimedHeight], of report: RepReport) -> Unseen {
    let from = report.concentricStartS
    let to = report.concentricEndS
    guard to > from else { return Unseen() }
    let silence = Silence.longest(in: readings, over: from...to)
    // Nothing read after the phase: its end is the silence's.
    guard let after = silence.after else { return Unseen(lengthS: silence.lengthS, hidTop: true) }
    // The phase's start reading: the last at or before it, else the first.
    let start = readings.last(where: { $0.t <= from }) ?? readings.first(where: { $0.t > from })
    let risen = after.cm - (start?.cm ?? after.cm)
    return Unseen(lengthS: silence.lengthS, hidTop: risen >= unseenTopShare * report.romCm)
  }

  static func isSeen(_ rep: RepAnalysis) -> Bool {
    rep.unseen.lengthS <= maxSilenceShare * rep.concentricDurationS
  }

  /// `rep` timed by the latest of `set`'s seen reps when its drive went
  /// unseen to its top; as it is otherwise, or when the set has none seen.
  static func timed(_ rep: RepAnalysis, bySeen set: [RepAnalysis]) -> RepAnalysis {
    guard !isSeen(rep), rep.unseen.hidTop else { return rep }
    let seen = set.filter(isSeen).suffix(timingReps)
    guard !seen.isEmpty else { return rep }
    let span = rep.concentricDurationS
    let setS = seen.map(\.concentricDurationS).max() ?? span
    let durationS = min(span, max(setS, span - rep.unseen.lengthS))
    guard durationS > 0, durationS < span else { return rep }
    var timed = rep
    var r = rep.report
    let faster = span / durationS
    r.meanVelocityMps = ReportRounding.metresPerSecond(r.romCm / 100 / durationS)
    // A path across a silence is straight: its peak reads its mean. The
    // set's seen reps say how far above its mean a rep of the set peaks.
    let peakShare = SetTracker.median(
      seen.map {
        $0.report.peakVelocityMps / max($0.report.meanVelocityMps, .leastNonzeroMagnitude)
      })
    r.peakVelocityMps = ReportRounding.metresPerSecond(
      max(r.peakVelocityMps, r.meanVelocityMps * peakShare))
    r.meanPropulsiveVelocityMps = ReportRounding.metresPerSecond(
      r.meanPropulsiveVelocityMps * faster)
    timed.report = r
    return timed
  }
}
