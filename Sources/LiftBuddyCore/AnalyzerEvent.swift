/// What the analyzer tells the world. Rep events go out as soon as a rep is
/// confirmed; the lift report as soon as its set ends.
public enum AnalyzerEvent: Equatable, Sendable {
  case setStarted(SetStarted)
  case rep(RepEvent)
  case lift(LiftReport)
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
  public var inSet: Bool = false
  public var repsInSet: Int = 0
  public init() {}
}
