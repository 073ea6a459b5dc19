import Logging
import NIOCore
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Publishes the daemon's events to the gym's MQTT broker, under
/// `<prefix>/<rack>/…` (docs/mqtt.md), through libmosquitto.
///
/// `publish` returns at once: it counts the event and hands it to the
/// sink's own thread (`SerialIOQueue`), which encodes it and queues it for
/// libmosquitto, whose own thread does the network. A broker that is down,
/// refuses, hangs or has a name that does not resolve costs the pipeline
/// nothing: messages wait in a bounded queue (`MQTTOutbox`) and go out in
/// order on reconnection; past the bounds they are dropped and counted.
/// Lift reports go with QoS 1 in a persistent session, each followed by
/// its retained copy on `last_lift` (for a coach who subscribes later);
/// their files are written by `ReportFileWriter` whatever the broker does.
public final class MQTTSink: EventSink {
  /// What became of the messages so far.
  public struct Counts: Sendable, Equatable {
    /// Handed to libmosquitto while connected.
    public var sent = 0
    /// Lift reports the broker acknowledged (PUBACK).
    public var liftsAcknowledged = 0
    /// Dropped for room (or refused by libmosquitto); counted, never logged one by one.
    public var dropped = 0
    /// Of `dropped`, lift reports (their files are on disk).
    public var droppedLifts = 0
    /// Waiting for the broker now.
    public var held = 0
    /// Handed over with QoS 1 and not yet acknowledged.
    public var unacknowledged = 0

    public init() {}
  }

  public let configuration: MQTTConfiguration
  private let logger: Logger
  private let queue = SerialIOQueue()
  private let publisher: NIOLoopBoundBox<MQTTPublisher?>
  private let snapshot = Mutex(MQTTPublisher.Snapshot())
  /// Events handed over by `publish` and not yet taken by the sink's
  /// thread, and those dropped because there were too many.
  private let waiting = Mutex((count: 0, dropped: 0))

  /// `sample` events let through, as the socket lets them through to a client.
  private let samples: Mutex<SampleRateLimiter?>
  /// Commands from `<prefix>/<rack>/cmd`, with `mqtt_commands`.
  private let commands: MQTTCommandInbox?

  /// Starts connecting at once, on the sink's own thread.
  public init(configuration: MQTTConfiguration, logger: Logger) {
    self.configuration = configuration
    self.logger = logger
    samples = Mutex(
      configuration.sampleRateHz.map { SampleRateLimiter(interval: .nanoseconds(Int64(1e9 / $0))) })
    commands =
      configuration.commands
      ? MQTTCommandInbox(
        topic: configuration.topics.command, maxBytes: configuration.maxCommandBytes,
        capacity: configuration.maxWaitingCommands, logger: logger) : nil
    publisher = NIOLoopBoundBox.makeEmptyBox(valueType: MQTTPublisher.self, eventLoop: queue.loop)
    queue.execute { [self] in
      let callbacks = MosquittoClient.Callbacks(
        connected: { [weak self] rc in self?.onQueue { $0.connected(rc) } },
        disconnected: { [weak self] rc, systemError in
          self?.onQueue { $0.disconnected(rc, systemError: systemError) }
        },
        published: { [weak self] mid in self?.onQueue { $0.acknowledged(mid) } },
        message: { [weak self] topic, payload in self?.commands?.receive(topic: topic, payload) },
        libraryError: { [weak self] text in self?.onQueue { $0.libraryError(text) } })
      let created = MQTTPublisher(
        configuration: configuration, logger: logger, callbacks: callbacks,
        publishSnapshot: { [weak self] in self?.mirror($0) },
        later: { [weak self] seconds, work in
          self?.queue.schedule(in: .milliseconds(Int64(seconds * 1000))) { [weak self] in
            self?.onQueue(work)
          }
        })
      publisher.value = created
      created.start()
    }
  }

  public func publish(_ event: DaemonEvent) {
    if case .sample = event {
      guard samples.withLock({ $0?.admit() ?? false }) else { return }
    }
    let admitted = waiting.withLock { state in
      guard state.count < configuration.maxWaiting else {
        state.dropped += 1
        return false
      }
      state.count += 1
      return true
    }
    guard admitted else { return }
    let topics = configuration.topics
    queue.execute { [self] in
      waiting.withLock { $0.count -= 1 }
      guard let message = MQTTMessage.make(for: event, topics: topics) else { return }
      publisher.value?.take(message)
    }
  }

  public var counts: Counts {
    var counts = snapshot.withLock { $0.counts }
    counts.dropped += waiting.withLock { $0.dropped }
    return counts
  }

  /// Lets the coach's commands (`mqtt_commands`) reach the pipeline's
  /// loop, as the socket's do; replies go out on `<prefix>/<rack>/reply`.
  /// Until this is called, commands wait (bounded).
  public func accept(commandsFor control: any DaemonControl) {
    let topic = configuration.topics.reply
    commands?.start(control: control) { [weak self] reply in
      guard let self else { return }
      var record = reply
      let payload = record.readBytes(length: max(0, record.readableBytes - 1)) ?? []
      let message = MQTTMessage(topic: topic, payload: payload, qos: 0, retain: false)
      self.queue.execute { [self] in self.publisher.value?.take(message) }
    }
  }

  /// Commands answered and refused so far.
  public var commandCounts: (answered: Int, refused: Int) { commands?.counts ?? (0, 0) }

  public var isConnected: Bool { snapshot.withLock { $0.link == .connected } }

  /// At exit: publishes the retained `offline` status, waits (at most
  /// `closeTimeoutS`) for the broker to take what is held and acknowledge
  /// the reports, or for a first connection still being made, then
  /// disconnects. Never waits on a broker that is known to be away.
  public func close() async {
    if let commands {
      await commands.stop()
      let (answered, refused) = commands.counts
      logger.info(
        "MQTT: commands from \(configuration.topics.command)",
        metadata: ["answered": "\(answered)", "refused": "\(refused)"])
    }
    waiting.withLock { $0.count += 1 }
    queue.execute { [self] in
      publisher.value?.sayGoodbye()
      waiting.withLock { $0.count -= 1 }
    }
    let deadline = ContinuousClock.now + .seconds(configuration.closeTimeoutS)
    _ = await until(deadline) { [self] in
      let (link, counts) = snapshot.withLock { ($0.link, $0.counts) }
      let settled = counts.held == 0 && counts.unacknowledged == 0
      return link == .down || (link == .connected && settled && waiting.withLock { $0.count } == 0)
    }
    queue.execute { [self] in publisher.value?.stop() }
    // libmosquitto's thread is joined on the sink's; should it hang there,
    // the process exits anyway and takes it along.
    if await until(
      ContinuousClock.now + .milliseconds(500), { [self] in snapshot.withLock { $0.stopped } })
    {
      await queue.shutdown()
    } else {
      logger.warning("MQTT: libmosquitto's thread did not stop in time; leaving it")
    }
  }

  private func onQueue(_ work: @escaping @Sendable (MQTTPublisher) -> Void) {
    queue.execute { [self] in
      if let publisher = publisher.value { work(publisher) }
    }
  }

  private func mirror(_ value: MQTTPublisher.Snapshot) { snapshot.withLock { $0 = value } }

  /// Polls `condition` every 10 ms until it holds or `deadline` passes.
  private func until(_ deadline: ContinuousClock.Instant, _ condition: () -> Bool) async -> Bool {
    while !condition() {
      if ContinuousClock.now >= deadline { return false }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return true
  }
}
