import LiftBuddyCore

/// What the coach knows of one rack, from its messages on the broker: is it
/// there, what set is it in, how fast was the last rep, how much velocity
/// has the set lost, and how did its last set end.
///
/// Payload objects the page shows as they are (the rack's `status` and its
/// last rep) are kept as their bytes: the room view passes on the socket
/// protocol's objects, it does not re-make them.
public struct RackState: Sendable, Equatable {
  public struct CurrentSet: Sendable, Equatable {
    public var setID: String
    /// The rack's count of sets; nil for a set known only from its report
    /// (`RoomModel.recall`), which does not carry it.
    public var number: Int?
    public var exercise: String?
    public var loadKg: Double?
    /// Its lift report has arrived.
    public var finished = false
  }

  public struct Rep: Sendable, Equatable {
    public var index: Int
    public var meanVelocityMps: Double
    public var provisional: Bool
  }

  /// The last finished set, from its lift report.
  public struct LastLift: Sendable, Equatable {
    public var id: String
    public var exercise: String?
    public var loadKg: Double?
    public var summary: SetSummary
    /// From the rack's retained copy (`last_lift`), taken by a coach who
    /// arrived after the set ended, not from the set's live report.
    public var recalled: Bool

    init(_ report: LiftReport, recalled: Bool) {
      id = report.id
      exercise = report.exercise
      loadKg = report.loadKg
      summary = report.summary
      self.recalled = recalled
    }
  }

  public let name: String
  /// nil until the rack's retained `status` (or any message) arrives; false
  /// once its status says `offline` (its goodbye or its last will).
  public internal(set) var online: Bool?
  /// The rack's last `status` object, as it published it.
  public internal(set) var status: [UInt8]?
  public internal(set) var set: CurrentSet?
  /// The current set's reps by index (final and provisional).
  public internal(set) var reps: [Int: Rep] = [:]
  /// The last `rep` or `rep_provisional` object of the current set, as published.
  public internal(set) var lastRep: [UInt8]?
  public internal(set) var lastRepIndex: Int?
  /// Loss so far in the current set: the last final rep's, then the report's.
  public internal(set) var velocityLossPct: Double?
  public internal(set) var lastLift: LastLift?
  /// Lift reports taken live (each report id once; not those recalled).
  public internal(set) var lifts = 0

  /// At most this many reps are kept per set (the analyzer's own cap).
  static let maxReps = 500

  init(name: String) { self.name = name }

  public var finalReps: Int { reps.values.filter { !$0.provisional }.count }
  public var provisionalReps: Int { reps.values.filter(\.provisional).count }

  /// The mean velocity of the rep `lastRep` holds.
  public var lastRepMeanVelocityMps: Double? { lastRepIndex.flatMap { reps[$0]?.meanVelocityMps } }

  /// The set's reps, velocity loss and last rep as its report has them.
  mutating func takeReps(of report: LiftReport) {
    reps = Dictionary(
      uniqueKeysWithValues: report.reps.map {
        ($0.index, Rep(index: $0.index, meanVelocityMps: $0.meanVelocityMps, provisional: false))
      })
    if let index = lastRepIndex, reps[index] == nil {
      lastRep = nil
      lastRepIndex = nil
    }
    velocityLossPct = report.summary.velocityLossPct
  }

  mutating func startSet(_ id: String, number: Int, exercise: String?, loadKg: Double?) {
    guard set?.setID != id else {
      // The `set` object after the set's provisional first rep: same set.
      set?.number = number
      set?.exercise = exercise
      set?.loadKg = loadKg
      return
    }
    set = CurrentSet(setID: id, number: number, exercise: exercise, loadKg: loadKg)
    reps.removeAll()
    lastRep = nil
    lastRepIndex = nil
    velocityLossPct = nil
  }
}
