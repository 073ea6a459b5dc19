import Foundation
import LiftBuddyCore

/// Every rack the coach hears of, from the messages the racks publish
/// (docs/mqtt.md): the socket protocol's objects, one per message, and the
/// lift report as its file's bytes.
///
/// Pure: fed a message, it changes a rack's state and says whether it did.
/// Lift reports can reach the coach twice (a rack that crashed between the
/// broker's acknowledgement and removing the report from its disk queue
/// sends it again): each rack's report id is taken once. What cannot be
/// read is counted and changes nothing. Memory is bounded: racks, reps
/// per set, and remembered report ids.
public struct RoomModel: Sendable {
  /// What became of the messages so far.
  public struct Counts: Sendable, Equatable {
    public var taken = 0
    /// Lift reports already taken (same rack, same report id).
    public var duplicates = 0
    /// Payloads that are not the object their topic names.
    public var unreadable = 0
    /// Messages from racks past `maxRacks`.
    public var racksRefused = 0
    /// Retained copies (`last_lift`) of a report not heard live, which
    /// filled a rack's last set (`recall`).
    public var recalled = 0
    /// Retained copies of a report already taken: every report is followed
    /// by its copy, so these are expected, not duplicates.
    public var copiesKnown = 0
    /// Empty `status` or `last_lift` messages: an operator clearing a
    /// retired rack's retained messages (docs/mqtt.md), not a bad payload.
    public var cleared = 0
  }

  /// A gym has tens of racks; a broker with thousands of names on it is
  /// not a room to show, and must not grow the coach's memory.
  public static let maxRacks = 256
  /// Report ids remembered for dropping duplicates (a gym's week of sets).
  public static let maxRememberedReports = 10_000
  /// A lift report is read up to the size the web view's history reads
  /// (`HistoryIndex.maxReportBytes`); every other object is a few hundred
  /// bytes, and is passed on to every page as it came, so a bigger one is
  /// not a rack's and is refused (counted as unreadable).
  public static let maxReportBytes = HistoryIndex.maxReportBytes
  public static let maxObjectBytes = 16 * 1024

  public private(set) var racks: [String: RackState] = [:]
  public private(set) var counts = Counts()
  private var seenReports: Set<String> = []
  private var seenOrder: [String] = []

  public init() {}

  /// Applies one message; true when the rack's state changed.
  @discardableResult
  public mutating func apply(rack name: String, _ eventClass: EventClass, payload: [UInt8])
    -> Bool
  {
    update(
      rack: name, bytes: payload.count,
      within: eventClass == .lift ? Self.maxReportBytes : Self.maxObjectBytes
    ) { rack, model in
      try Self.apply(eventClass, payload, to: &rack, model: &model)
    }
  }

  /// Applies a message on one of the racks' topics, as `CoachFeed` takes it.
  @discardableResult
  mutating func apply(_ topic: CoachTopic, payload: [UInt8]) -> Bool {
    if payload.isEmpty, topic.isLastLift || topic.eventClass == .status {
      counts.cleared += 1
      return false
    }
    return topic.isLastLift
      ? recall(rack: topic.rack, payload: payload)
      : apply(rack: topic.rack, topic.eventClass, payload: payload)
  }

  /// Applies a rack's retained report copy (`last_lift`): what a coach who
  /// arrives while the rack is idle knows of its last set. A report already
  /// taken (its live `lift` came first, as it always does while the coach
  /// is subscribed) changes nothing; one not heard before is remembered by
  /// its id, so that the same report arriving live later is a duplicate,
  /// and shown as the rack's last set, marked `recalled`: not a set that
  /// has just ended, and not counted in `lifts`.
  @discardableResult
  public mutating func recall(rack name: String, payload: [UInt8]) -> Bool {
    update(rack: name, bytes: payload.count, within: Self.maxReportBytes) { rack, model in
      let report = try JSONDecoder().decode(LiftReport.self, from: Data(payload))
      guard model.remember(report: report.id, of: rack.name) else {
        model.counts.copiesKnown += 1
        return false
      }
      model.counts.recalled += 1
      rack.lastLift = .init(report, recalled: true)
      // A set being lifted is newer than any copy, and stays. A finished
      // one is older than a copy not heard before: copies come right after
      // their reports, and a (re)subscribing coach gets the newest.
      if rack.set?.finished != false || rack.set?.setID == report.id {
        rack.set = .init(
          setID: report.id, number: nil, exercise: report.exercise, loadKg: report.loadKg,
          finished: true)
        rack.takeReps(of: report)
      }
      return true
    }
  }

  /// The bounds every message passes, then `change` on the rack's state,
  /// kept when it says it changed something.
  private mutating func update(
    rack name: String, bytes: Int, within maxBytes: Int,
    _ change: (inout RackState, inout RoomModel) throws -> Bool
  ) -> Bool {
    guard racks[name] != nil || racks.count < Self.maxRacks else {
      counts.racksRefused += 1
      return false
    }
    guard bytes <= maxBytes else {
      counts.unreadable += 1
      return false
    }
    var rack = racks[name] ?? RackState(name: name)
    let changed: Bool
    do {
      changed = try change(&rack, &self)
    } catch {
      counts.unreadable += 1
      return false
    }
    if changed {
      counts.taken += 1
      racks[name] = rack
    }
    return changed
  }

  // MARK: - The classes

  private struct StatusPayload: Decodable { var state: String }

  private static func apply(
    _ eventClass: EventClass, _ payload: [UInt8], to rack: inout RackState,
    model: inout RoomModel
  ) throws -> Bool {
    let data = Data(payload)
    let decoder = JSONDecoder()
    switch eventClass {
    case .status:
      let status = try decoder.decode(StatusPayload.self, from: data)
      rack.online = status.state != "offline"
      rack.status = payload
    case .set:
      let set = try decoder.decode(WireReading.SetStarted.self, from: data)
      rack.online = true
      rack.startSet(set.setID, number: set.set, exercise: set.exercise, loadKg: set.loadKg)
    case .rep, .repProvisional:
      let o = try decoder.decode(WireReading.Rep.self, from: data)
      let provisional = eventClass == .repProvisional
      rack.online = true
      rack.startSet(o.setID, number: o.set, exercise: o.exercise, loadKg: o.loadKg)
      // A final rep is never changed; the set's report settles it.
      if rack.set?.finished == true { return false }
      if provisional, rack.reps[o.rep.index]?.provisional == false { return false }
      guard rack.reps[o.rep.index] != nil || rack.reps.count < RackState.maxReps else {
        return false
      }
      rack.reps[o.rep.index] = .init(
        index: o.rep.index, meanVelocityMps: o.rep.meanVelocityMps, provisional: provisional)
      rack.lastRep = payload
      rack.lastRepIndex = o.rep.index
      if !provisional { rack.velocityLossPct = o.velocityLossPct }
    case .repWithdrawn:
      let o = try decoder.decode(WireReading.Withdrawn.self, from: data)
      guard rack.set?.setID == o.setID, rack.reps[o.index]?.provisional == true else {
        return false
      }
      rack.reps[o.index] = nil
      if rack.lastRepIndex == o.index {
        rack.lastRep = nil
        rack.lastRepIndex = nil
      }
    case .lift:
      let report = try decoder.decode(LiftReport.self, from: data)
      guard model.remember(report: report.id, of: rack.name) else {
        model.counts.duplicates += 1
        return false
      }
      rack.online = true
      rack.lifts += 1
      rack.lastLift = .init(report, recalled: false)
      if rack.set?.setID == report.id {
        // The report holds exactly the set's final reps: a rep message lost
        // on the way (they go with QoS 0) is mended here.
        rack.set?.finished = true
        rack.takeReps(of: report)
      }
    case .sample:
      return false
    }
    return true
  }

  /// False when this rack's report id was taken before.
  private mutating func remember(report id: String, of rack: String) -> Bool {
    let key = rack + "/" + id
    guard seenReports.insert(key).inserted else { return false }
    seenOrder.append(key)
    if seenOrder.count > Self.maxRememberedReports {
      // The oldest half at once: amortised O(1) without a ring buffer.
      let oldest = seenOrder.prefix(Self.maxRememberedReports / 2)
      seenReports.subtract(oldest)
      seenOrder.removeFirst(oldest.count)
    }
    return true
  }
}
