import LiftBuddyCore
import NIOCore

/// One message for the broker: the daemon's one event model (the socket's
/// objects, from `WireEncoder`) on this rack's topic for its class.
struct MQTTMessage: Sendable, Equatable {
  /// What the sink does with a message beyond sending it. Said outright,
  /// not read from QoS and retain: the goodbye `status` is QoS 1 and
  /// retained, and so is a report's retained copy, and neither is a lift
  /// report for the queue's bounds or the acknowledgement counts.
  enum Kind: Sendable, Equatable {
    /// A lift report on `lift`: on disk until acknowledged, the last to be
    /// dropped for room, counted when acknowledged.
    case lift
    /// The retained copy of the newest report on `last_lift`: one is
    /// enough, so a newer copy replaces one still waiting.
    case lastLift
    /// Everything else: reps, sets, status, samples, replies.
    case event
  }

  var topic: String
  var payload: [UInt8]
  /// 1 for lift reports and their retained copies (acknowledged, kept in
  /// the persistent session) and the goodbye, 0 for the rest: a rep the
  /// coach missed is stale by the next one.
  var qos: Int32
  /// The broker keeps the last `status` and the last report's copy for
  /// whoever subscribes later.
  var retain: Bool
  /// Its report's file in the on-disk queue (`MQTTSpool`), for a lift
  /// report and its retained copy: the file goes when the broker has
  /// acknowledged both.
  var spoolName: String? = nil
  var kind = Kind.event

  var isLift: Bool { kind == .lift }

  /// `sample` only reaches here when asked for (`mqtt_samples`, rate-limited by the sink).
  ///
  /// Payloads are the socket's objects without the record's LF (an MQTT
  /// message is framed already); a lift report is the bytes of its report
  /// file (`ReportFileWriter.fileContents`, LF included), so that a coach's
  /// copy is byte for byte the rack's.
  static func make(for event: DaemonEvent, topics: MQTTTopics) -> MQTTMessage? {
    let topic: String
    switch event {
    case .analyzer(.lift(let report)):
      return .lift(ReportFileWriter.fileContents(report), topics: topics)
    case .analyzer(.setStarted): topic = topics.set
    case .analyzer(.rep): topic = topics.rep
    case .analyzer(.provisionalRep): topic = topics.repProvisional
    case .analyzer(.repWithdrawn): topic = topics.repWithdrawn
    case .status: topic = topics.status
    case .sample: topic = topics.sample
    }
    var record = WireEncoder.event(event)
    let payload = record.readBytes(length: max(0, record.readableBytes - 1)) ?? []
    return MQTTMessage(topic: topic, payload: payload, qos: 0, retain: topic == topics.status)
  }

  /// A lift report (its file's bytes) on `lift`: QoS 1, not retained, so
  /// that every report reaches a subscriber once each (at least once).
  static func lift(_ payload: [UInt8], topics: MQTTTopics, spoolName: String? = nil)
    -> MQTTMessage
  {
    MQTTMessage(
      topic: topics.lift, payload: payload, qos: 1, retain: false, spoolName: spoolName,
      kind: .lift)
  }

  /// The retained copy of a lift report on `last_lift`, sent right after
  /// the report itself: the broker keeps the newest for a coach who
  /// subscribes while the rack is idle (docs/mqtt.md).
  func lastLiftCopy(topics: MQTTTopics) -> MQTTMessage {
    MQTTMessage(
      topic: topics.lastLift, payload: payload, qos: 1, retain: true, spoolName: spoolName,
      kind: .lastLift)
  }

  /// The retained `status` that says the rack is gone: sent by us at a clean
  /// stop, and left with the broker as the last will for any other end.
  static func offline(topics: MQTTTopics, source: String, message: String, qos: Int32)
    -> MQTTMessage
  {
    MQTTMessage(
      topic: topics.status,
      payload: OfflineStatusObject(source: source, message: message).encoded(), qos: qos,
      retain: true)
  }
}
