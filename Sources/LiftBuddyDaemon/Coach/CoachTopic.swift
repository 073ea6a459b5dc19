/// A topic a rack publishes on, read back: `<prefix>/<rack>/<class>`
/// (docs/mqtt.md). The rack is one topic level (`MQTTTopics.isValidRack`),
/// so a topic splits back into prefix, rack and class without guessing.
struct CoachTopic: Sendable, Equatable {
  var rack: String
  /// `.lift` for `last_lift` too, whose payload is a lift report.
  var eventClass: EventClass
  /// `last_lift`: the rack's newest report again, retained, for a coach
  /// who arrives while the rack is idle (`RoomModel.recall`).
  var isLastLift = false

  /// The classes a coach follows; `sample` is left to the rack's own page.
  static let followed: [EventClass] = [.set, .rep, .repProvisional, .repWithdrawn, .lift, .status]

  /// The subscriptions for every rack under `prefix`: one per class, so
  /// that a class added later (`sample`, `cmd`) never floods the coach.
  static func filters(prefix: String) -> [String] {
    (followed.map(\.rawValue) + [MQTTTopics.lastLiftLevel]).map { "\(prefix)/+/\($0)" }
  }

  /// nil for a topic that is not `<prefix>/<valid rack>/<followed class>`.
  init?(_ topic: String, prefix: String) {
    guard topic.hasPrefix(prefix + "/") else { return nil }
    let rest = topic.dropFirst(prefix.count + 1).split(
      separator: "/", omittingEmptySubsequences: false)
    guard rest.count == 2, MQTTTopics.isValidRack(String(rest[0])) else { return nil }
    self.rack = String(rest[0])
    if rest[1] == MQTTTopics.lastLiftLevel {
      eventClass = .lift
      isLastLift = true
      return
    }
    guard let eventClass = EventClass(rawValue: String(rest[1])),
      Self.followed.contains(eventClass)
    else { return nil }
    self.eventClass = eventClass
  }
}
