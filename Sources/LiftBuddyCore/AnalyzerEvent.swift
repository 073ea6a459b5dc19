/// What the analyzer tells the world, in the order it learns it.
///
/// A rep is told as soon as the bar locks out. When the lockout alone cannot
/// tell a rep from a one-way move (the first rise of a set, say, before the
/// bar has come back or a second rep has shown the set's own bottom and
/// top), it is told as `provisionalRep`; later the same rep (same set id and
/// index) is either told again as `rep`, final, or withdrawn. A `rep` is
/// never withdrawn or changed: clients that only want final numbers ignore
/// the provisional events and lose nothing but speed. A `setStarted` comes
/// just before its set's first final rep, so a set that is told exists.
public enum AnalyzerEvent: Equatable, Sendable {
  case setStarted(SetStarted)
  /// Told at lockout; may be confirmed (a later `rep`) or withdrawn.
  case provisionalRep(RepEvent)
  /// Final: the rep and its numbers stand.
  case rep(RepEvent)
  /// A provisional rep that was not a rep after all.
  case repWithdrawn(RepWithdrawal)
  case lift(LiftReport)
}

/// A provisional rep the bar's later movement showed was not a rep. The next
/// rep of the set takes its index.
public struct RepWithdrawal: Equatable, Sendable {
  public enum Reason: String, Sendable, CaseIterable {
    /// The bar did not come back to where it rose from: it was lifted onto
    /// the rack, to the shoulders, over the hooks.
    case oneWay = "one_way"
    /// The round trip lies outside the set's own bottom and top (handling
    /// before the set, a clean before presses).
    case outsideSet = "outside_set"
  }

  /// The id and number the set would have had.
  public var setID: String
  public var setNumber: Int
  public var index: Int
  public var reason: Reason

  public init(setID: String, setNumber: Int, index: Int, reason: Reason) {
    self.setID = setID
    self.setNumber = setNumber
    self.index = index
    self.reason = reason
  }
}

public struct SetStarted: Equatable, Sendable {
  /// The id the set's lift report will carry.
  public var setID: String
  /// 1-based count of sets in this session.
  public var setNumber: Int
  public var startS: Double
  public var exercise: String?
  public var loadKg: Double?

  public init(setID: String, setNumber: Int, startS: Double, exercise: String?, loadKg: Double?) {
    self.setID = setID
    self.setNumber = setNumber
    self.startS = startS
    self.exercise = exercise
    self.loadKg = loadKg
  }
}

public struct RepEvent: Equatable, Sendable {
  public var setID: String
  public var setNumber: Int
  public var exercise: String?
  public var loadKg: Double?
  public var rep: RepReport
  /// Velocity loss so far in the set (fastest rep's mean velocity to this
  /// rep's), in percent; nil for the first rep.
  public var velocityLossPct: Double?

  public init(
    setID: String, setNumber: Int, exercise: String?, loadKg: Double?, rep: RepReport,
    velocityLossPct: Double?
  ) {
    self.setID = setID
    self.setNumber = setNumber
    self.exercise = exercise
    self.loadKg = loadKg
    self.rep = rep
    self.velocityLossPct = velocityLossPct
  }
}

/// The latest smoothed state, for live plots (the daemon's `sample` class).
public struct LiveState: Equatable, Sendable {
  public var t: Double = 0
  public var heightCm: Double? = nil
  public var velocityMps: Double? = nil
  public var pitchDeg: Double? = nil
  public var rollDeg: Double? = nil
  public init() {}
}
