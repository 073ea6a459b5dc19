/// Per-rep numbers the coach needs beyond the report's fields.
///
/// They come from the rep's velocity and acceleration curves, which the
/// report does not carry; the analyzer measures them once, when the rep ends,
/// so that coaching stays a pure function of finished reps.
public struct RepAnalysis: Sendable, Equatable {
  public var report: RepReport
  /// Bar velocity a quarter of the way through the concentric phase (m/s):
  /// how hard the bar is driven off the bottom.
  public var quarterVelocityMps: Double
  /// Share (0…1) of the concentric duration before the bar starts
  /// decelerating faster than gravity (a < −9.81 m/s², the end of the
  /// propulsive phase, Sánchez-Medina et al. 2010); 1 when it never does.
  public var propulsiveFraction: Double
  /// (burst − the dip) / burst, the burst being the fastest velocity before
  /// the dip, when the velocity dips and recovers (`RepMeasurer.stickingPoint`);
  /// nil otherwise.
  public var stickingDipFraction: Double?
  /// The longest stretch of the concentric phase with no reading the
  /// measurer kept (a frozen sonar, no echo, echoes taken out): where it
  /// is most of the phase, the phase's timing is the silence's, not the
  /// bar's (`UnseenRamp`).
  var unseen = UnseenRamp.Unseen()

  public init(
    report: RepReport, quarterVelocityMps: Double, propulsiveFraction: Double,
    stickingDipFraction: Double?
  ) {
    self.report = report
    self.quarterVelocityMps = quarterVelocityMps
    self.propulsiveFraction = propulsiveFraction
    self.stickingDipFraction = stickingDipFraction
  }

  /// Concentric duration in seconds; 0 when the times are inconsistent.
  var concentricDurationS: Double {
    max(0, report.concentricEndS - report.concentricStartS)
  }

  /// Bar velocity a quarter of the way through the concentric phase, over
  /// the rep's mean velocity. Dimensionless, so one threshold fits every
  /// load; nil when the rep has no duration or speed.
  var driveRatio: Double? {
    let mean = report.meanVelocityMps
    guard concentricDurationS > 0, mean > 0 else { return nil }
    return quarterVelocityMps / mean
  }

  /// When peak velocity comes, as a share (0…1) of the concentric duration.
  var timeToPeakFraction: Double? {
    let duration = concentricDurationS
    guard duration > 0 else { return nil }
    return min(1, max(0, report.timeToPeakVelocityS / duration))
  }
}
