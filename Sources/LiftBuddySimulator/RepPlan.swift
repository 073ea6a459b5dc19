/// What the planner intended for one rep, in sample-clock seconds. The truth
/// is not read from here but measured on the trajectory around these
/// times, because overlapping pulses (a bounce) move the real turnaround.
public struct RepPlan: Sendable, Equatable {
  /// 1-based within its set.
  public var index: Int
  /// Start of the lowering that leads into this rep's concentric phase, if
  /// the rep has one (eccentric-first lifts; never a deadlift's first pull).
  public var eccentricStart: Double?
  /// Start of the first and end of the last concentric pulse.
  public var concentricPulseStart: Double
  public var concentricPulseEnd: Double
  /// End of the rep's own lowering when it follows the concentric phase
  /// (concentric-first lifts), for the set's extent.
  public var trailingEccentricEnd: Double?
  /// Planned as a grinder with a sticking point.
  public var isGrinder: Bool
}

/// One planned set: its reps in order.
public struct SetPlan: Sendable, Equatable {
  public var loadKg: Double
  public var reps: [RepPlan]
}

/// A movement of the bar that is not a rep and must not be counted as one.
public struct NonRepPlan: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// Bar lifted 3–8 cm off the hooks.
    case unrack
    /// Steps back with the bar on the back or in the front rack: ±1–2 cm.
    case walkOut = "walk_out"
    /// Steps forward to the hooks.
    case walkIn = "walk_in"
    /// Bar lowered 3–8 cm onto the hooks.
    case rerack
    /// A 2–6 cm dip or lift to re-grip or reset (not a rep).
    case adjustment
    /// Bumper plates bouncing after the bar is set down.
    case settle
    /// Between sets: the bar does not move.
    case rest
  }

  public var kind: Kind
  public var startS: Double
  public var endS: Double

  public init(kind: Kind, startS: Double, endS: Double) {
    self.kind = kind
    self.startS = startS
    self.endS = endS
  }

  enum CodingKeys: String, CodingKey {
    case kind
    case startS = "start_s"
    case endS = "end_s"
  }
}
