import LiftBuddyCore
import NIOCore

/// One message for the broker: the daemon's one event model (the socket's
/// objects, from `WireEncoder`) on this rack's topic for its class.
struct MQTTMessage: Sendable, Equatable {
  var topic: String
  var payload: [UInt8]
  /// 1 for lift reports (acknowledged, kept in the persistent session),
  /// 0 for the rest: a rep the coach missed is stale by the next one.
  var qos: Int32
  /// The broker keeps the last `status` for whoever subscribes later.
  var retain: Bool
  /// A lift report's file in the on-disk queue (`MQTTSpool`), removed
  /// when the broker acknowledges it.
  var spoolName: String? = nil

  var isLift: Bool { qos == 1 && !retain }

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
      return MQTTMessage(
        topic: topics.lift, payload: ReportFileWriter.fileContents(report), qos: 1, retain: false)
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
