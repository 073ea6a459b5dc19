import Logging
import NIOCore
import Synchronization

/// Commands from the coach on `<prefix>/<rack>/cmd` (with `mqtt_commands`):
/// parsed by the socket's own `CommandParser` (one parser: the same
/// validation, the same messages), carried out through `DaemonControl`,
/// which puts them into the pipeline's one ordered loop exactly as the
/// socket's are, and answered with the socket's `ack` or `error` object,
/// one at a time, in the order they came.
///
/// Who may send them is the broker's to decide (its ACL, docs/mqtt.md):
/// whoever may publish on the topic steers the rack. Bounded: commands
/// arriving while `capacity` wait are dropped and counted, so a flood
/// costs a few KB and never the pipeline's time.
final class MQTTCommandInbox: Sendable {
  private let topic: String
  private let maxBytes: Int
  private let logger: Logger
  private let stream: AsyncStream<[UInt8]>
  private let continuation: AsyncStream<[UInt8]>.Continuation
  private let state = Mutex(
    (answered: 0, refused: 0, dropSaid: false, task: Task<Void, Never>?.none))

  init(topic: String, maxBytes: Int, capacity: Int, logger: Logger) {
    self.topic = topic
    self.maxBytes = maxBytes
    self.logger = logger
    (stream, continuation) = AsyncStream.makeStream(
      of: [UInt8].self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
  }

  var counts: (answered: Int, refused: Int) { state.withLock { ($0.answered, $0.refused) } }

  /// On libmosquitto's thread: queues the payload, never waits.
  func receive(topic: String, _ payload: [UInt8]) {
    guard topic == self.topic else { return }
    guard case .dropped = continuation.yield(payload) else { return }
    let first = state.withLock { state in
      state.refused += 1
      defer { state.dropSaid = true }
      return !state.dropSaid
    }
    if first {
      logger.warning(
        "MQTT: commands on \(self.topic) come faster than the daemon answers them; the excess is dropped (counted)"
      )
    }
  }

  /// Starts answering, through `control`; `reply` publishes an answer.
  func start(control: any DaemonControl, reply: @escaping @Sendable (ByteBuffer) -> Void) {
    let task = Task { [self] in
      for await payload in stream {
        let (answer, accepted) = await answer(payload, control: control)
        state.withLock {
          if accepted { $0.answered += 1 } else { $0.refused += 1 }
        }
        reply(answer)
      }
    }
    state.withLock { $0.task = task }
  }

  /// Stops answering; commands still waiting are dropped.
  func stop() async {
    continuation.finish()
    let task = state.withLock { $0.task }
    task?.cancel()
    await task?.value
  }

  /// The socket's answer to one command, and whether it was carried out.
  func answer(_ payload: [UInt8], control: any DaemonControl) async -> (ByteBuffer, Bool) {
    guard payload.count <= maxBytes else {
      return refuse("command longer than \(maxBytes) bytes")
    }
    var line = payload[...]
    if line.last == UInt8(ascii: "\n") { line = line.dropLast() }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    let command: ClientCommand
    switch CommandParser.parse(Array(line)) {
    case .failure(let error): return refuse(error.message)
    case .success(let parsed): command = parsed
    }
    let steering: ControlCommand
    switch command {
    case .set(let exercise, let loadKg): steering = .setNext(exercise: exercise, loadKg: loadKg)
    case .startSet: steering = .startSet
    case .endSet: steering = .endSet
    case .status: return (WireEncoder.status(await control.currentStatus()), true)
    case .watch, .version:
      return refuse(
        "\(command.name) is for the socket; over MQTT: set, start_set, end_set, status (events are on \(topic.dropLast(3))#)"
      )
    }
    if let failure = await control.perform(steering) { return refuse(failure) }
    // The loop answers a command before it publishes what the command
    // made (an `end_set`'s report), and takes its next question only after:
    // so once this is answered the report is with the sink, ahead of the ack.
    _ = await control.currentStatus()
    logger.notice("MQTT: \(command.name) from \(topic)")
    return (WireEncoder.ack(command), true)
  }

  private func refuse(_ message: String) -> (ByteBuffer, Bool) {
    logger.info("MQTT: command on \(topic) refused: \(message)")
    return (WireEncoder.error(message), false)
  }
}
