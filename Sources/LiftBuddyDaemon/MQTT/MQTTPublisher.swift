import CMosquitto
import Logging

/// The MQTT sink's side on its own thread: holds what waits for the broker
/// (`MQTTOutbox`), hands it to libmosquitto in order while connected,
/// follows the link from libmosquitto's callbacks (hopped to this thread,
/// so that a message id is known here before its acknowledgement is), and
/// says in the log, once per change, what the link is doing.
///
/// Confined to the sink's `SerialIOQueue`; what others may read is
/// mirrored out through `publishSnapshot` after every change.
final class MQTTPublisher {
  enum Link: Sendable, Equatable {
    /// No answer from the broker yet (the first attempt or a retry).
    case connecting
    case connected
    /// The last attempt failed, or the link broke; libmosquitto retries.
    case down
  }

  /// What `MQTTSink` reads from other threads.
  struct Snapshot: Sendable, Equatable {
    var link = Link.connecting
    var counts = MQTTSink.Counts()
    /// The loop thread has been stopped (or never started).
    var stopped = false
  }

  private let configuration: MQTTConfiguration
  private let logger: Logger
  private let publishSnapshot: @Sendable (Snapshot) -> Void
  /// Runs work on this thread (with this publisher) after so many seconds.
  private let later: @Sendable (Double, @escaping @Sendable (MQTTPublisher) -> Void) -> Void
  private var firstConnectionBackoff: Backoff
  private var stopped = false
  private let client: MosquittoClient?
  private var outbox: MQTTOutbox
  private var link = Link.connecting
  private var everConnected = false
  /// The problems logged since the last connection, so that a retry
  /// failing a way already told says nothing (libmosquitto reports one
  /// TLS failure now by its callback, now by a log line, now not at all).
  private var toldProblems: [String] = []
  /// Message ids handed to libmosquitto with QoS 1 and not yet
  /// acknowledged, with the messages.
  private var unacknowledged: [Int32: MQTTMessage] = [:]
  /// Lift reports on disk until acknowledged; nil: memory only.
  private let spool: MQTTSpool?
  /// For each report file in the spool, how many of its two messages (the
  /// report, its retained copy) are still held or unacknowledged: the file
  /// goes when none is, so that a daemon stopped between the two sends
  /// both again (the coach drops the report by its id) and the retained
  /// copy is never left older than the newest report.
  private var spoolHolders: [String: Int] = [:]
  /// A failure to queue a report on disk is said once, until one succeeds.
  private var spoolFailing = false
  private var counts = MQTTSink.Counts()
  /// Our own connection attempts (`start`), and whether the broker (or the
  /// network) has said anything since the last one.
  private var attempts = 0
  private var answered = false
  /// libmosquitto's last error line (OpenSSL's reason for a TLS failure),
  /// told with the `disconnected` that follows it.
  private var libraryError: (text: String, at: ContinuousClock.Instant)?
  /// A CONNACK refusal was just told; the disconnection after it says no more.
  private var refused = false
  /// A restart of libmosquitto's thread is scheduled (one at a time: a
  /// second would cancel the attempt the first made).
  private var restartPending = false

  init(
    configuration: MQTTConfiguration, logger: Logger, callbacks: MosquittoClient.Callbacks,
    publishSnapshot: @escaping @Sendable (Snapshot) -> Void,
    later: @escaping @Sendable (Double, @escaping @Sendable (MQTTPublisher) -> Void) -> Void
  ) {
    self.configuration = configuration
    self.logger = logger
    self.publishSnapshot = publishSnapshot
    self.later = later
    firstConnectionBackoff = Backoff(
      initial: Double(configuration.reconnectDelay.minimum),
      maximum: Double(configuration.reconnectDelay.maximum))
    outbox = MQTTOutbox(capacity: configuration.maxHeld)
    spool = configuration.spoolDirectory.flatMap { directory in
      do {
        return try MQTTSpool(reportDirectory: directory, capacity: configuration.maxSpooled)
      } catch {
        logger.error(
          "MQTT: cannot use \(directory)/\(MQTTSpool.directoryName) to keep reports for the broker: \(error); keeping them in memory only"
        )
        return nil
      }
    }
    var earlier: [MQTTMessage] = []
    if let spool {
      let (entries, unreadable) = spool.load()
      if !unreadable.isEmpty {
        logger.error(
          "MQTT: cannot read queued reports in \(spool.directory.path): \(unreadable.joined(separator: ", ")); left there"
        )
      }
      if !entries.isEmpty {
        logger.notice(
          "MQTT: \(entries.count) lift reports from an earlier run wait for the broker in \(spool.directory.path)"
        )
      }
      earlier = entries.map {
        .lift($0.payload, topics: configuration.topics, spoolName: $0.name)
      }
    }
    do {
      let client = try MosquittoClient(
        clientID: configuration.clientID, cleanSession: false, callbacks: callbacks)
      let will = MQTTMessage.offline(
        topics: configuration.topics, source: configuration.source,
        message: "the daemon left without a goodbye (stopped hard, lost power or lost the network)",
        qos: 1)
      try client.setWill(topic: will.topic, payload: will.payload, qos: will.qos, retain: true)
      try client.secure(configuration.security)
      client.setReconnectDelay(
        minimum: configuration.reconnectDelay.minimum,
        maximum: configuration.reconnectDelay.maximum, exponential: true)
      self.client = client
    } catch {
      logger.error(
        "MQTT: cannot set up a client for \(configuration.broker): \(error); not publishing")
      client = nil
    }
    // Oldest first, each followed by its retained copy (a newer copy
    // replacing an older one still waiting): the broker's `last_lift`
    // ends as the newest report, whatever this run adds after them.
    for lift in earlier { enqueue(lift: lift) }
  }

  /// Starts connecting; the first attempt (and the name lookup) runs here,
  /// on the sink's thread, never the pipeline's.
  ///
  /// libmosquitto's thread retries a connection once one has been made,
  /// but while no attempt has ever got as far as a TCP connection it only
  /// waits (polling every 10 ms) for one: so until then the retries are
  /// ours, with `Backoff`, and its thread starts with the first success.
  func start() {
    guard let client else {
      link = .down
      return markStopped()
    }
    guard !stopped else { return }
    let broker = configuration.broker
    attempts += 1
    answered = false
    if let error = client.connectAsync(
      host: broker.host, port: broker.port, keepAliveS: configuration.keepAliveS)
    {
      problem(error.description)
      later(firstConnectionBackoff.take()) { $0.start() }
      return
    }
    let attempt = attempts
    later(configuration.answerTimeoutS) { $0.checkAnswered(attempt) }
    do {
      try client.startLoop()
    } catch {
      logger.error("MQTT: cannot start libmosquitto's thread: \(error); not publishing")
      markStopped()
    }
  }

  func take(_ message: MQTTMessage) {
    var message = message
    if message.isLift, let spool {
      do {
        message.spoolName = try spool.add(message.payload)
        if message.spoolName == nil {
          logger.warning(
            "MQTT: \(spool.capacity) reports already wait on disk; this one waits in memory only")
        }
        spoolFailing = false
      } catch {
        if !spoolFailing {
          logger.error(
            "MQTT: cannot queue a report in \(spool.directory.path): \(error); it waits in memory only"
          )
        }
        spoolFailing = true
      }
    }
    if message.isLift { enqueue(lift: message) } else { append(message) }
    flush()
  }

  /// Queues a lift report, then its retained copy; both hold its spool file.
  private func enqueue(lift: MQTTMessage) {
    if let name = lift.spoolName { spoolHolders[name] = 2 }
    append(lift)
    append(lift.lastLiftCopy(topics: configuration.topics))
  }

  private func append(_ message: MQTTMessage) {
    for gone in outbox.append(message) { release(gone) }
  }

  /// `message` no longer waits for the broker (acknowledged, dropped or
  /// replaced): its report's spool file goes once neither of the two does.
  private func release(_ message: MQTTMessage) {
    guard let name = message.spoolName, let holders = spoolHolders[name] else { return }
    if holders > 1 {
      spoolHolders[name] = holders - 1
    } else {
      spoolHolders[name] = nil
      spool?.remove(name)
    }
  }

  // MARK: - From libmosquitto's callbacks

  func connected(_ rc: Int32) {
    answered = true
    guard rc == 0 else {
      refused = true
      return problem(MosquittoError.refusal(rc).description)
    }
    link = .connected
    toldProblems.removeAll()
    firstConnectionBackoff.reset()
    if configuration.commands,
      let error = client?.subscribe(topic: configuration.topics.command, qos: 0)
    {
      logger.error("MQTT: cannot subscribe to \(configuration.topics.command): \(error)")
    }
    logger.notice(
      "MQTT: connected to \(configuration.broker) as \(configuration.clientID)\(everConnected ? " again" : ""); publishing under \(configuration.topics.topic("#"))"
    )
    everConnected = true
    flush()
  }

  func disconnected(_ rc: Int32, systemError: Int32) {
    answered = true
    let detail = recentLibraryError
    let hadAnswered = link == .connected
    guard rc != 0, !refused else {
      refused = false
      link = .down
      return mirror()
    }
    let error = MosquittoError(code: rc, systemError: systemError)
    if error.code == Int32(MOSQ_ERR_TLS.rawValue), detail == nil {
      // OpenSSL's reason may reach the log callback just after this.
      link = .down
      mirror()
      later(0.25) { publisher in
        guard publisher.link != .connected else { return }
        publisher.tlsProblem(error)
      }
    } else if !hadAnswered, error.isClosedBeforeAnswer {
      // An HTTP server, an SSH daemon, a TLS port spoken to in plain text.
      problem(
        "the other end closed the connection without an MQTT answer: is it an MQTT broker on that port, and does it expect TLS (we connect \(configuration.tls == nil ? "without" : "with"))?"
      )
    } else {
      problem(error.description + (detail.map { ": \($0)" } ?? ""))
    }
    if error.endsLibraryThread { restartLater() }
  }

  private func tlsProblem(_ error: MosquittoError) {
    problem(error.description + (recentLibraryError.map { ": \($0)" } ?? ""))
  }

  func libraryError(_ text: String) { libraryError = (text, .now) }

  /// libmosquitto's error line of the last two seconds: the reason for a
  /// failure it reports by code alone. (Its line and its callback do not
  /// always reach this thread in the order they happened.)
  private var recentLibraryError: String? {
    guard let libraryError, ContinuousClock.now - libraryError.at < .seconds(2) else { return nil }
    return libraryError.text
  }

  func acknowledged(_ mid: Int32) {
    guard let message = unacknowledged.removeValue(forKey: mid) else { return }
    if message.isLift { counts.liftsAcknowledged += 1 }
    release(message)
    flush()
  }

  // MARK: - Stopping

  /// Queues the retained `offline` status, then hands over what it can.
  func sayGoodbye() {
    take(
      .offline(
        topics: configuration.topics, source: configuration.source, message: "liftbuddyd stopped",
        qos: 1))
  }

  /// Disconnects cleanly when connected (the broker then drops the will),
  /// else cancels libmosquitto's thread, which may be asleep in a
  /// reconnection delay; says what was left unsent.
  func stop() {
    let unsentLifts = outbox.messages.filter(\.isLift).count
    let unacknowledgedLifts = unacknowledged.values.filter(\.isLift).count
    if unsentLifts + unacknowledgedLifts > 0 {
      let whereKept =
        spool.map { "they wait in \($0.directory.path) for the next start" }
        ?? "their files are in the report directory"
      logger.warning(
        "MQTT: stopping with \(unsentLifts + unacknowledgedLifts) lift reports the broker has not acknowledged; \(whereKept)"
      )
    }
    client?.stop(force: link != .connected)
    logger.info(
      "MQTT: stopped",
      metadata: [
        "sent": "\(counts.sent)", "lifts_acknowledged": "\(counts.liftsAcknowledged)",
        "dropped": "\(counts.dropped + outbox.dropped)", "unsent": "\(outbox.count)",
      ])
    markStopped()
  }

  // MARK: - Internals

  /// libmosquitto's thread has returned for good (see
  /// `MosquittoError.endsLibraryThread`): join it and start over, with backoff.
  private func restartLater() {
    guard !restartPending else { return }
    restartPending = true
    later(firstConnectionBackoff.take()) { publisher in
      publisher.restartPending = false
      guard !publisher.stopped, publisher.link != .connected else { return }
      publisher.client?.joinLoop()
      publisher.start()
    }
  }

  /// Nothing at all from the other end since our attempt: say so (once),
  /// and start over. libmosquitto's thread does not time out a first
  /// connection that never completes (it waits for one, see `start`), and
  /// a port that accepts and says nothing would hold it until the keep-alive.
  private func checkAnswered(_ attempt: Int) {
    guard attempt == attempts, !answered, !stopped, link != .connected else { return }
    let tls = configuration.tls == nil ? "without" : "with"
    // A TLS failure in the first handshake ends libmosquitto's thread with
    // no callback but its log line.
    if configuration.tls != nil, recentLibraryError != nil {
      tlsProblem(MosquittoError(code: Int32(MOSQ_ERR_TLS.rawValue)))
    } else if let detail = recentLibraryError {
      problem("the connection failed: \(detail)")
    } else {
      problem(
        "no MQTT answer within \(DaemonStatus.format(configuration.answerTimeoutS)) s: is an MQTT broker listening there, and does it expect TLS (we connect \(tls))?"
      )
    }
    restartLater()
  }

  /// Hands held messages to libmosquitto, in order, while connected and
  /// while the reports it holds unacknowledged are under the bound.
  private func flush() {
    defer { mirror() }
    guard link == .connected, let client else { return }
    while let message = outbox.first {
      if message.qos > 0, unacknowledged.count >= configuration.maxUnacknowledged { return }
      switch client.publish(
        topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain)
      {
      case .success(let mid):
        _ = outbox.removeFirst()
        counts.sent += 1
        if message.qos > 0 { unacknowledged[mid] = message }
      case .failure(let error) where error.isNoConnection:
        // The link broke before its callback reached this thread; the
        // message waits for the next connection.
        link = .down
        return
      case .failure(let error):
        release(outbox.removeFirst())
        counts.dropped += 1
        logger.error("MQTT: cannot publish on \(message.topic): \(error); dropped")
      }
    }
  }

  private func problem(_ text: String) {
    link = .down
    defer { mirror() }
    // The same again, or the same with less said (a TLS failure without
    // OpenSSL's reason), is not news.
    guard !toldProblems.contains(where: { $0.hasPrefix(text) }) else { return }
    if toldProblems.count >= 8 { toldProblems.removeFirst() }
    toldProblems.append(text)
    let delay = configuration.reconnectDelay
    logger.warning(
      "MQTT broker \(configuration.broker): \(text); retrying every \(delay.minimum)–\(delay.maximum) s (reports are still written to files)"
    )
  }

  private func mirror() {
    var counts = self.counts
    counts.dropped += outbox.dropped
    counts.droppedLifts = outbox.droppedLifts
    counts.held = outbox.count
    counts.unacknowledged = unacknowledged.count
    publishSnapshot(Snapshot(link: link, counts: counts, stopped: stopped))
  }

  private func markStopped() {
    stopped = true
    mirror()
  }
}
