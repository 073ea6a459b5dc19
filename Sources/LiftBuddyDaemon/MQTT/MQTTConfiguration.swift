#if canImport(Glibc)
  import Glibc
#endif

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
  /// The user name and password the broker checks (its `password_file`).
  public var credentials: (username: String, password: String?)?
  /// TLS to the broker; nil: plain TCP.
  public var tls: MQTTTLS?
  /// Takes the socket's `set`, `start_set`, `end_set` from `<prefix>/<rack>/cmd`.
  public var commands = false
  /// A command's payload longer than this is refused (the socket's line bound).
  public var maxCommandBytes = 4096
  /// Commands waiting for the pipeline; past this they are refused (counted).
  public var maxWaitingCommands = 16
  /// Publishes `sample`, at most this many per second; nil: none.
  public var sampleRateHz: Double?
  /// After an attempt, how long the broker has to answer before the log
  /// says it does not (a port that accepts and says nothing; TLS on one
  /// side only). libmosquitto gives up on it at the keep-alive.
  public var answerTimeoutS = 5.0
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

  /// What gets this rack into the broker; the coach's view on the same
  /// daemon uses it too.
  var security: MosquittoSecurity.Settings { .init(credentials: credentials, tls: tls) }
}

/// TLS to the broker: the CA that signed its certificate, and this rack's
/// own certificate and key when the broker asks for one.
public struct MQTTTLS: Sendable, Equatable {
  /// nil: the system's CA directory.
  public var caFile: String?
  public var certFile: String?
  public var keyFile: String?
  public static let systemCADirectory = "/etc/ssl/certs"

  public init(caFile: String? = nil, certFile: String? = nil, keyFile: String? = nil) {
    self.caFile = caFile
    self.certFile = certFile
    self.keyFile = keyFile
  }
}

extension MQTTConfiguration {
  /// The systemd credentials (`LoadCredential=NAME:PATH`) read when no file is given.
  public static let passwordCredential = "mqtt-password"
  public static let keyCredential = "mqtt-key"

  /// The sink's configuration from the daemon's, with its secrets read now,
  /// at start: a password file (or systemd credential) that is missing, or
  /// that other users may read, stops the start with one line (EX_CONFIG),
  /// rather than a daemon that runs and never gets in. nil without `mqtt`.
  public static func make(
    from daemon: DaemonConfiguration, environment: [String: String], source: String,
    spoolDirectory: String?
  ) throws(ConfigurationError) -> MQTTConfiguration? {
    guard let broker = daemon.mqtt else { return nil }
    var c = MQTTConfiguration(
      broker: broker,
      topics: MQTTTopics(prefix: daemon.mqttPrefix, rack: daemon.rack ?? MQTTTopics.defaultRack()),
      source: source, spoolDirectory: spoolDirectory)
    let credentials = environment["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 }
    func credential(_ name: String) -> String? {
      guard let credentials else { return nil }
      let path = credentials + "/" + name
      return access(path, F_OK) == 0 ? path : nil
    }
    func secret<T>(_ key: String, _ body: () throws(ConfigurationError.Reason) -> T)
      throws(ConfigurationError) -> T
    {
      do { return try body() } catch { throw ConfigurationError(key: key, reason: error.text) }
    }
    let passwordFile = daemon.mqttPasswordFile ?? credential(passwordCredential)
    let password = try passwordFile.map { path throws(ConfigurationError) in
      try secret("mqtt_password_file") { () throws(ConfigurationError.Reason) in
        try SecretFile.readLine(path)
      }
    }
    if let username = daemon.mqttUsername {
      c.credentials = (username, password)
    } else if password != nil {
      throw ConfigurationError(
        key: "mqtt_username", reason: "a password needs a user name (mqtt_username)")
    }
    if daemon.mqttTLS || daemon.mqttCAFile != nil || daemon.mqttCertFile != nil {
      var tls = MQTTTLS(caFile: daemon.mqttCAFile, certFile: daemon.mqttCertFile)
      if let ca = tls.caFile { try readable("mqtt_ca_file", ca) }
      if let cert = tls.certFile {
        try readable("mqtt_cert_file", cert)
        guard let key = daemon.mqttKeyFile ?? credential(keyCredential) else {
          throw ConfigurationError(
            key: "mqtt_key_file",
            reason:
              "a client certificate needs its key: mqtt_key_file, or the credential \(keyCredential)"
          )
        }
        try secret("mqtt_key_file") { () throws(ConfigurationError.Reason) in
          try SecretFile.checkOnly(key)
        }
        tls.keyFile = key
      }
      c.tls = tls
    }
    c.commands = daemon.mqttCommands
    c.sampleRateHz = daemon.mqttSamples ? daemon.sampleRateHz : nil
    return c
  }

  /// Certificates are public, but a path that cannot be read is a typo
  /// better told at start than at every connection.
  private static func readable(_ key: String, _ path: String) throws(ConfigurationError) {
    guard access(path, R_OK) == 0 else {
      throw ConfigurationError(
        key: key, reason: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
  }
}
