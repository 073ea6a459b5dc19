import DequeModule

/// Messages waiting for the broker, in publication order, bounded.
///
/// While the broker is away everything waits here, reps and lift reports
/// alike, so that they go out in order when it is back (a lift never
/// before the reps it counts). When full, the oldest rep or status goes
/// first: a coach can live without a stale rep, and the report that
/// counts it is kept; a lift report is dropped only when nothing else is
/// left to drop (its file is on disk). A report's retained copy
/// (`last_lift`) waits once: a newer copy replaces one still waiting,
/// since the broker would keep only the newest anyway, and it goes for
/// room only with the reports.
struct MQTTOutbox {
  let capacity: Int
  private(set) var messages: Deque<MQTTMessage> = []
  /// Messages dropped for room so far.
  private(set) var dropped = 0
  /// Of `dropped`, lift reports.
  private(set) var droppedLifts = 0

  init(capacity: Int) { self.capacity = max(1, capacity) }

  var count: Int { messages.count }
  var isEmpty: Bool { messages.isEmpty }
  var first: MQTTMessage? { messages.first }

  /// Queues `message`; returns those that leave unsent to make way for it
  /// (dropped for room, or a retained copy it replaces), so that the
  /// caller can let go of what they hold on disk.
  @discardableResult
  mutating func append(_ message: MQTTMessage) -> [MQTTMessage] {
    var gone: [MQTTMessage] = []
    if message.kind == .lastLift, let older = messages.firstIndex(where: { $0.kind == .lastLift }) {
      gone.append(messages.remove(at: older))
    }
    if messages.count >= capacity {
      let victim =
        messages.firstIndex { $0.kind == .event }
        ?? messages.firstIndex { $0.kind == .lift } ?? messages.startIndex
      if messages[victim].isLift { droppedLifts += 1 }
      gone.append(messages.remove(at: victim))
      dropped += 1
    }
    messages.append(message)
    return gone
  }

  mutating func removeFirst() -> MQTTMessage { messages.removeFirst() }
}
