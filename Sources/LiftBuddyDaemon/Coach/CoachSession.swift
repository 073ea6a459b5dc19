import CMosquitto
import Logging
import NIOCore

/// The coach's link on its own thread: the libmosquitto subscriber, its
/// first connection and subscriptions, and the log lines about the link.
/// Confined to `CoachFeed`'s queue; libmosquitto's connection callbacks are
/// hopped there (its messages are not: `CoachFeed` applies them at once).
final class CoachSession {
  private let configuration: CoachConfiguration
  private let logger: Logger
  private let subscriber: MosquittoClient?
  /// Calls `start` again on this thread after so many seconds.
  private let retryLater: @Sendable (Double) -> Void
  /// A changed page object: its key (`""` for the link, `rack/<name>`) and bytes.
  private let update: @Sendable (String, ByteBuffer) -> Void
  private var backoff: Backoff
  private var lastProblem: String?
  private var everConnected = false
  private var stopped = false
  private(set) var connected = false

  init(
    configuration: CoachConfiguration, logger: Logger, callbacks: MosquittoClient.Callbacks,
    retryLater: @escaping @Sendable (Double) -> Void,
    update: @escaping @Sendable (String, ByteBuffer) -> Void
  ) {
    self.configuration = configuration
    self.logger = logger
    self.retryLater = retryLater
    self.update = update
    backoff = Backoff(
      initial: Double(configuration.reconnectDelay.minimum),
      maximum: Double(configuration.reconnectDelay.maximum))
    do {
      // A clean session: the broker keeps nothing for a coach who is away
      // (the racks' retained `status` tells a returning coach where each
      // rack is), so the subscriptions are made again on every connection.
      let subscriber = try MosquittoClient(
        clientID: configuration.clientID, cleanSession: true, callbacks: callbacks,
        maxMessageBytes: RoomModel.maxReportBytes)
      subscriber.setReconnectDelay(
        minimum: configuration.reconnectDelay.minimum,
        maximum: configuration.reconnectDelay.maximum, exponential: true)
      try subscriber.secure(configuration.security)
      self.subscriber = subscriber
    } catch {
      logger.error("coach: cannot set up an MQTT client: \(error); the room stays empty")
      subscriber = nil
    }
    publishLink()
  }

  /// The first connection: retried here with `Backoff` until one attempt
  /// gets through (libmosquitto's thread retries only once it has had a
  /// connection; see `MQTTPublisher.start`), then libmosquitto's own.
  func start() {
    guard let subscriber, !stopped else { return }
    let broker = configuration.broker
    if let error = subscriber.connectAsync(
      host: broker.host, port: broker.port, keepAliveS: configuration.keepAliveS)
    {
      problem(error.description)
      retryLater(backoff.take())
      return
    }
    do {
      try subscriber.startLoop()
    } catch {
      logger.error("coach: cannot start libmosquitto's thread: \(error); the room stays empty")
    }
  }

  func connected(_ rc: Int32) {
    guard rc == 0 else { return problem(MosquittoError.refusal(rc).description) }
    let filters = CoachTopic.filters(prefix: configuration.prefix)
    // QoS 1: what the racks publish with QoS 1, their lift reports, reaches
    // the coach acknowledged too.
    if let error = subscriber?.subscribe(filters, qos: 1) {
      return problem("cannot subscribe: \(error)")
    }
    connected = true
    lastProblem = nil
    logger.notice(
      "coach: connected to \(configuration.broker)\(everConnected ? " again" : ""); following \(configuration.prefix)/+/…"
    )
    everConnected = true
    publishLink()
  }

  func disconnected(_ rc: Int32, systemError: Int32) {
    connected = false
    // A refusal was said by `connected` already, with the broker's reason.
    if rc != 0, rc != Int32(MOSQ_ERR_CONN_REFUSED.rawValue) {
      problem(MosquittoError(code: rc, systemError: systemError).description)
    } else {
      publishLink()
    }
  }

  func stop() {
    stopped = true
    subscriber?.stop(force: !connected)
    connected = false
  }

  private func problem(_ text: String) {
    connected = false
    publishLink(message: text)
    guard text != lastProblem else { return }
    lastProblem = text
    let delay = configuration.reconnectDelay
    logger.warning(
      "coach: MQTT broker \(configuration.broker): \(text); retrying every \(delay.minimum)–\(delay.maximum) s"
    )
  }

  private func publishLink(message: String? = nil) {
    update(
      "",
      CoachLinkObject(
        mqtt: configuration.broker.description, prefix: configuration.prefix,
        connected: connected, message: message
      ).frame)
  }
}
