/// Hands the daemon's events to the socket server, which queues them for its
/// subscribers without making the pipeline wait.
public struct SocketSink: EventSink {
  public let server: SocketServer

  public init(server: SocketServer) { self.server = server }

  public func publish(_ event: DaemonEvent) { server.publish(event) }
}
