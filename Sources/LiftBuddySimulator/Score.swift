/// How well an analysis matched the truth, for one stream or summed over
/// many. Everything is a count or a sum, so scores add exactly and the mean
/// errors of an aggregate are over all its reps, not a mean of means.
public struct Score: Sendable, Equatable {
  /// A running mean absolute error, and the mean signed error beside it:
  /// a bias says which way to tune (a concentric end found early shows as
  /// a negative end bias and a positive mean-velocity bias).
  public struct ErrorSum: Sendable, Equatable {
    public var total = 0.0
    public var signedTotal = 0.0
    public var count = 0
    public init() {}
    /// `error` is found minus true.
    public mutating func add(_ error: Double) {
      total += abs(error)
      signedTotal += error
      count += 1
    }
    /// Nil when nothing was matched: no error is not zero error.
    public var mean: Double? { count == 0 ? nil : total / Double(count) }
    public var bias: Double? { count == 0 ? nil : signedTotal / Double(count) }
    public static func + (a: ErrorSum, b: ErrorSum) -> ErrorSum {
      var s = a
      s.total += b.total
      s.signedTotal += b.signedTotal
      s.count += b.count
      return s
    }
  }

  public var streams = 0
  /// Sets in the truth.
  public var sets = 0
  /// Sets the analysis reported.
  public var reportedSets = 0
  /// Truth sets matched by a report with exactly their rep count.
  public var exactSets = 0
  /// Reports overlapping no truth set (or a set already matched).
  public var extraSets = 0
  public var missedSets = 0
  /// Streams whose report count differs from their truth set count.
  public var setCountMismatches = 0
  public var reps = 0
  public var matchedReps = 0
  public var extraReps = 0
  public var missedReps = 0
  /// m/s
  public var meanVelocity = ErrorSum()
  /// m/s
  public var peakVelocity = ErrorSum()
  /// cm
  public var rom = ErrorSum()
  /// s
  public var concentricStart = ErrorSum()
  /// s
  public var concentricEnd = ErrorSum()
  /// Max |pitch| and max |roll| over the concentric phase, degrees: both
  /// angles of every matched rep the tool measured them on.
  public var tilt = ErrorSum()
  /// Reports whose span overlaps no true set at all (not a split set: a
  /// set that never happened).
  public var phantomSets = 0
  /// Matched reps with a true sticking point, and how many the tool found.
  public var stickingReps = 0
  public var stickingFound = 0
  /// Matched reps without one, and how many the tool claimed one on.
  public var smoothReps = 0
  public var stickingClaimed = 0
  /// Seconds from a true lockout to the stream time at which the final
  /// `rep` event (and a provisional one, if any) about it came out.
  public var repLatencies: [Double] = []
  public var provisionalLatencies: [Double] = []
  /// Per true rep, the first event that told it (provisional or final):
  /// what a lifter sees first, the latency issue 8's target is about.
  public var firstEventLatencies: [Double] = []
  /// Provisional reps told that were no rep (withdrawn or not).
  public var falseProvisionals = 0

  public init() {}

  /// Matched reps over reported reps; nil when nothing was reported.
  public var repPrecision: Double? {
    let found = matchedReps + extraReps
    return found == 0 ? nil : Double(matchedReps) / Double(found)
  }

  /// Matched reps over true reps.
  public var repRecall: Double? {
    reps == 0 ? nil : Double(matchedReps) / Double(reps)
  }

  /// The `q` quantile (0…1) of `values` by the nearest-rank method.
  public static func quantile(_ values: [Double], _ q: Double) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let rank = Int((q * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  /// Share of sets counted exactly, where a set the analysis invented
  /// counts as one more set it got wrong. Nil with no sets either side.
  public var exactSetRate: Double? {
    let denominator = sets + extraSets
    return denominator == 0 ? nil : Double(exactSets) / Double(denominator)
  }

  public static func + (a: Score, b: Score) -> Score {
    var s = a
    s.streams += b.streams
    s.sets += b.sets
    s.reportedSets += b.reportedSets
    s.exactSets += b.exactSets
    s.extraSets += b.extraSets
    s.missedSets += b.missedSets
    s.setCountMismatches += b.setCountMismatches
    s.reps += b.reps
    s.matchedReps += b.matchedReps
    s.extraReps += b.extraReps
    s.missedReps += b.missedReps
    s.meanVelocity = s.meanVelocity + b.meanVelocity
    s.peakVelocity = s.peakVelocity + b.peakVelocity
    s.rom = s.rom + b.rom
    s.concentricStart = s.concentricStart + b.concentricStart
    s.concentricEnd = s.concentricEnd + b.concentricEnd
    s.tilt = s.tilt + b.tilt
    s.phantomSets += b.phantomSets
    s.stickingReps += b.stickingReps
    s.stickingFound += b.stickingFound
    s.smoothReps += b.smoothReps
    s.stickingClaimed += b.stickingClaimed
    s.repLatencies += b.repLatencies
    s.provisionalLatencies += b.provisionalLatencies
    s.firstEventLatencies += b.firstEventLatencies
    s.falseProvisionals += b.falseProvisionals
    return s
  }
}
