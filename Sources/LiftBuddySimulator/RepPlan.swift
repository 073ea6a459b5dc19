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
    /// Scenario sessions (`SessionStyle`): one-way moves and handling.
    /// Floor to the hips (a deadlift to pick the bar up).
    case pickUp = "pick_up"
    /// Walking with the bar: a 1–3 cm bob at step frequency.
    case carry
    /// From the hips (or floor) up and onto the hooks.
    case floorToRack = "floor_to_rack"
    /// A clean or pull from the floor (or hang) to the shoulders.
    case clean
    /// Shoulders or hooks back down to the floor.
    case putDown = "put_down"
    /// Plates slid onto the racked bar: bumps, and the clip's end levered
    /// up while only the far side is loaded.
    case plateLoading = "plate_loading"
    /// A deadlift jack holding the bar's end up while plates change.
    case jack
    /// The bar rolled into place on the floor (the IMU turns, height does not).
    case roll
    /// A mid-set pause to re-grip: dip and drive, or a wobble at lockout.
    case regrip
    /// Someone handling the clip: the sonar sees a hand, not the floor.
    case clipHandling = "clip_handling"
    /// A rep that did not lock out: partial rise and back down. Not a rep.
    case failedRep = "failed_rep"
    /// A spotter's help to lockout after a failed bench rep. Not a rep.
    case assistedRise = "assisted_rise"
    /// The bar lifted from the safety pins back onto the hooks.
    case offPins = "off_pins"
    /// A deadlift dropped from lockout.
    case drop
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
