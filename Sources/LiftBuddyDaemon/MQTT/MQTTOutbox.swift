import DequeModule

/// Messages waiting for the broker, in publication order, bounded.
///
/// While the broker is away everything waits here, reps and lift reports
/// alike, so that they go out in order when it is back (a lift never
/// before the reps it counts). When full, the oldest rep or status goes
/// first: a coach can live without a stale rep, and the report that
/// counts it is kept; a lift report is dropped only when nothing else is
/// left to drop (its file is on disk).
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

  mutating func append(_ message: MQTTMessage) {
    if messages.count >= capacity {
      let victim = messages.firstIndex { !$0.isLift } ?? messages.startIndex
      if messages[victim].isLift { droppedLifts += 1 }
      messages.remove(at: victim)
      dropped += 1
    }
    messages.append(message)
  }

  mutating func removeFirst() -> MQTTMessage { messages.removeFirst() }
}
