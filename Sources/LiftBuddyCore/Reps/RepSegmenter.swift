/// Finds the bar's rises online: a zig-zag over the smoothed height with
/// hysteresis, so that noise and small wobbles never flip its direction.
///
/// Every rep of every lift contains exactly one concentric rise from a
/// bottom (valley) to a top (peak); squats and bench presses reach it after
/// a descent, deadlifts and overhead presses start with it. Segmenting on
/// rises makes the order of phases irrelevant, and leaves "is it a rep?" to
/// one threshold: the size of the rise (unracking, re-racking, walk-outs
/// and bounces are all a few centimetres).
///
/// A top is confirmed when the bar has come down by the hysteresis, or has
/// stayed there for `stillS` (a lockout held before re-racking), so a rep is
/// reported while the lifter is still standing with the bar.
struct RepSegmenter: Sendable {
  /// Direction changes smaller than this are noise. Three centimetres is
  /// well above the smoothed sonar noise (σ ≈ 0.5 cm) and below the
  /// smallest hitch that still matters.
  static let hysteresisCm = 3.0
  /// A top held this long (with no new high beyond `stillToleranceCm`) is
  /// a lockout; shorter than any pause between reps is not needed, because
  /// a descent confirms the top sooner.
  static let stillS = 0.3
  static let stillToleranceCm = 1.0

  struct Rise: Equatable, Sendable {
    var valley: TimedHeight
    var peak: TimedHeight
    /// The top the bar came down from into this valley, if it did.
    var previousPeak: TimedHeight?
  }

  private enum Direction { case unknown, rising, falling }
  private var direction = Direction.unknown
  private var extremum: TimedHeight? = nil
  /// When the running maximum last grew by more than the still tolerance.
  private var extremumSettledAt = 0.0
  private var lowest: TimedHeight? = nil
  private var highest: TimedHeight? = nil
  private var valley: TimedHeight? = nil
  private var peakBeforeValley: TimedHeight? = nil
  private var lastPeak: TimedHeight? = nil
  private var reported = false

  /// Only rises at least this big are reported (set per exercise and set).
  var minRiseCm: Double

  init(minRiseCm: Double) {
    self.minRiseCm = minRiseCm
  }

  /// When the bar last turned (a top or a bottom confirmed): the last sign
  /// that someone is moving it.
  private(set) var lastTurnT: Double? = nil

  mutating func push(_ p: TimedHeight) -> Rise? {
    switch direction {
    case .unknown:
      if lowest == nil || p.cm < lowest!.cm { lowest = p }
      if highest == nil || p.cm > highest!.cm { highest = p }
      if p.cm > lowest!.cm + Self.hysteresisCm {
        valley = lowest
        startRising(at: p)
      } else if p.cm < highest!.cm - Self.hysteresisCm {
        lastPeak = highest
        direction = .falling
        extremum = p
      }
      return nil
    case .rising:
      guard let top = extremum else { return nil }
      if p.cm > top.cm {
        if p.cm > top.cm + Self.stillToleranceCm { extremumSettledAt = p.t }
        extremum = p
        return nil
      }
      if p.cm < top.cm - Self.hysteresisCm {
        let rise = reported ? nil : qualifying(top)
        lastPeak = top
        lastTurnT = top.t
        direction = .falling
        extremum = p
        return rise
      }
      if !reported, p.t - extremumSettledAt >= Self.stillS, let rise = qualifying(top) {
        reported = true
        return rise
      }
      return nil
    case .falling:
      guard let bottom = extremum else { return nil }
      if p.cm < bottom.cm {
        extremum = p
      } else if p.cm > bottom.cm + Self.hysteresisCm {
        peakBeforeValley = lastPeak
        valley = bottom
        lastTurnT = bottom.t
        startRising(at: p)
      }
      return nil
    }
  }

  /// End of data: a rise in progress whose top is already high enough
  /// counts (a stream that stops at lockout).
  mutating func flush() -> Rise? {
    guard direction == .rising, !reported, let top = extremum else { return nil }
    reported = true
    return qualifying(top)
  }

  private mutating func startRising(at p: TimedHeight) {
    direction = .rising
    extremum = p
    extremumSettledAt = p.t
    reported = false
  }

  private func qualifying(_ top: TimedHeight) -> Rise? {
    guard let bottom = valley, top.cm - bottom.cm >= minRiseCm else { return nil }
    return Rise(valley: bottom, peak: top, previousPeak: peakBeforeValley)
  }
}
