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

  public init(broker: MQTTBroker, prefix: String = "liftbuddy") {
    self.broker = broker
    self.prefix = prefix
    clientID = "liftbuddy-coach-\(MQTTTopics.defaultRack())-\(getpid())"
  }
}
