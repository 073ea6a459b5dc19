/// Something that takes the daemon's events in order: the JSON-file writer,
/// the log, systemd's status line, the socket server, a terminal.
public protocol EventSink: Sendable {
  func publish(_ event: DaemonEvent) async
}
