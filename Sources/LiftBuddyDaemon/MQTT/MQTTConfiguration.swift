/// What the MQTT sink needs: the broker, this rack's topics, and the bounds
/// that keep a broker that is away from costing the daemon memory.
public struct MQTTConfiguration: Sendable {
  public var broker: MQTTBroker
  public var topics: MQTTTopics
  /// The clip's source name, for the last will's `status` object.
  public var source: String
  /// Messages held while the broker is away (or before it first answers);
  /// past this the oldest rep or status is dropped (counted), and a lift
  /// report only when nothing else is left to drop: its file is on disk.
  public var maxHeld = 1000
  /// Lift reports handed to libmosquitto and not yet acknowledged (PUBACK);
  /// past this, messages wait in the held queue, in order.
  public var maxUnacknowledged = 100
  /// The report directory, beside which lift reports wait on disk for the
  /// broker (`MQTTSpool`); nil: in memory only.
  public var spoolDirectory: String?
  /// Lift reports waiting on disk at most.
  public var maxSpooled = 1000
  /// Events handed over by the pipeline and not yet taken by the sink's
  /// thread; past this, events are dropped (counted) instead of queued.
  public var maxWaiting = 1000
  /// libmosquitto's reconnection backoff, in seconds: 1, 4, 9, 16, 16 …
  public var reconnectDelay: (minimum: UInt32, maximum: UInt32) = (1, 16)
  /// Seconds between MQTT pings; a broker silent for 1.5 times this is
  /// dropped and reconnected (and the broker sends the will if the rack is).
  public var keepAliveS: Int32 = 15
  /// At exit, how long to wait for the broker to take what is held and
  /// acknowledge the reports, within the daemon's 2 s for SIGTERM.
  public var closeTimeoutS = 1.0

  public init(
    broker: MQTTBroker, topics: MQTTTopics, source: String, spoolDirectory: String? = nil
  ) {
    self.broker = broker
    self.topics = topics
    self.source = source
    self.spoolDirectory = spoolDirectory
  }

  /// One client id per rack, for the broker's persistent session: the
  /// session (and the reports in it) survives a reconnection only if the
  /// id is the same. Two daemons given the same rack name take turns
  /// throwing each other off the broker.
  public var clientID: String { "liftbuddyd-\(topics.rack)" }
}
