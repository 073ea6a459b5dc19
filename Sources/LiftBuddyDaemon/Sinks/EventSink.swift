/// Something that takes the daemon's events: the JSON-file writer, the
/// recorder, the log, systemd's status line, the socket server, a terminal.
///
/// The pipeline's one loop calls `publish` for every event, in the order the
/// analyzer produced it, sink after sink, and goes on only when it returns:
/// that is what keeps every sink's view in order (a `rep` always before the
/// `lift` that counts it), and why `publish` must return at once. A sink
/// that does slow or blocking I/O queues the event and does the I/O on a
/// queue of its own (`SerialIOQueue`), as `ReportFileWriter` does; the
/// socket server hands the bytes to its event loops.
///
/// To add a sink, conform to this protocol and add it to the list that
/// `DaemonRunner.sinks(…)` builds; nothing else needs to know.
public protocol EventSink: Sendable {
  func publish(_ event: DaemonEvent)
}
