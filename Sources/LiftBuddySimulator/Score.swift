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

  public init() {}

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
    return s
  }
}
