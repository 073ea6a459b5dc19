#if canImport(Glibc)
  import Glibc
#endif

/// What the coach's side needs: the broker, the racks' topic prefix, and
/// how it reconnects.
public struct CoachConfiguration: Sendable {
  public var broker: MQTTBroker
  /// The racks' `mqtt_prefix`: the coach follows `<prefix>/+/<class>`.
  public var prefix: String
  /// libmosquitto's reconnection backoff once connected, and the coach's own
  /// before the first connection, in seconds.
  public var reconnectDelay: (minimum: UInt32, maximum: UInt32) = (1, 16)
  public var keepAliveS: Int32 = 15
  /// A clean session needs no fixed id; the process id keeps two coaches on
  /// one machine (a daemon with `coach` and `liftbuddy coach`) apart.
  public var clientID: String
  /// User name, password and TLS: a broker whose ACL lets the coach read
  /// every rack lets it in as a user of its own (docs/mqtt.md).
  var security = MosquittoSecurity.Settings()

  public init(broker: MQTTBroker, prefix: String = "liftbuddy") {
    self.broker = broker
    self.prefix = prefix
    clientID = "liftbuddy-coach-\(MQTTTopics.defaultRack())-\(getpid())"
  }

  /// The coach's side of a daemon's MQTT settings: its broker, prefix and
  /// the way in (its secrets already read by `MQTTConfiguration.make`).
  public init(following mqtt: MQTTConfiguration) {
    self.init(broker: mqtt.broker, prefix: mqtt.topics.prefix)
    security = mqtt.security
  }
}
