/// Hands the daemon's events to the web view, as `SocketSink` does to the
/// Unix socket: the same events, in the same order, without waiting.
public struct WebSink: EventSink {
  public let server: WebServer

  public init(server: WebServer) { self.server = server }

  public func publish(_ event: DaemonEvent) { server.publish(event) }
}
