import Glibc
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The daemon's Unix socket: JSON Lines both ways, in the manner of gpsd.
///
/// Each connection gets a pipeline of small stages (line framing with a hard
/// bound, command decoding, the connection handler); `publish` encodes an
/// event once and hands the bytes to each event loop, which writes them to
/// its subscribers. The caller never waits on any client: a client that
/// cannot keep up is dropped once `clientBufferBytes` are queued for it.
public final class SocketServer: Sendable {
  private enum State {
    case idle
    case starting
    case running(channel: any Channel, file: SocketFile)
    case stopped
  }

  private let configuration: SocketConfiguration
  private let control: any DaemonControl
  private let logger: Logger
  private let group: MultiThreadedEventLoopGroup
  private let ownsGroup: Bool
  private let registry: ClientRegistry
  private let state = NIOLockedValueBox(State.idle)

  /// - Parameter eventLoopGroup: the daemon's group, if it has one; otherwise
  ///   the server runs its own single-threaded group (one thread serves
  ///   hundreds of subscribers at these rates, and leaves the cores to the
  ///   pipeline).
  public init(
    configuration: SocketConfiguration, control: any DaemonControl, logger: Logger,
    eventLoopGroup: MultiThreadedEventLoopGroup? = nil
  ) {
    self.configuration = configuration
    self.control = control
    self.logger = logger
    self.group = eventLoopGroup ?? MultiThreadedEventLoopGroup(numberOfThreads: 1)
    self.ownsGroup = eventLoopGroup == nil
    self.registry = ClientRegistry(group: group)
  }

  /// Clients connected right now (subscribed or not).
  public var connectedClients: Int { registry.count }

  /// Binds and listens. A socket left by a crashed daemon (nobody listening)
  /// is replaced; a live one, or a path that is not a socket, is an error.
  public func start() async throws {
    try state.withLockedValue {
      guard case .idle = $0 else { throw SocketServerError.alreadyStarted }
      $0 = .starting
    }
    do {
      var file = try SocketFile(path: configuration.path)
      let fd = try file.bind(mode: configuration.mode, group: configuration.group)
      let channel: any Channel
      do {
        channel = try await bootstrap().withBoundSocket(fd).get()
      } catch {
        file.removeIfOurs()
        throw error
      }
      state.withLockedValue { $0 = .running(channel: channel, file: file) }
      logger.info("socket listening", metadata: ["path": "\(configuration.path)"])
    } catch {
      state.withLockedValue { $0 = .idle }
      throw error
    }
  }

  /// Queues the event for every subscribed client and returns at once, from
  /// any thread. Events published from one thread reach each client in that
  /// order.
  public func publish(_ event: DaemonEvent) {
    guard registry.count > 0 else { return }
    let frame = WireEncoder.event(event)
    let eventClass = EventClass(of: event)
    for (loop, clients) in registry.loops {
      loop.execute {
        for handler in clients.value.handlers.values { handler.deliver(frame, class: eventClass) }
      }
    }
  }

  /// Stops accepting, sends `finalStatus` to every client (subscribed or
  /// not), closes them (waiting at most half a second for one that does
  /// not read), and removes the socket file if it is still ours.
  public func shutdown(finalStatus: DaemonStatus?) async {
    let running: (channel: any Channel, file: SocketFile)? = state.withLockedValue { state in
      defer { state = .stopped }
      if case .running(let channel, let file) = state { return (channel, file) }
      return nil
    }
    registry.close()
    if let running {
      try? await running.channel.close()
      let lastWords = finalStatus.map(WireEncoder.status)
      let closed = registry.loops.map { loop, clients in
        loop.flatSubmit {
          EventLoopFuture.andAllComplete(
            clients.value.handlers.values.map { $0.finish(lastWords: lastWords) }, on: loop)
        }
      }
      for future in closed { try? await future.get() }
      running.file.removeIfOurs()
      logger.info("socket closed", metadata: ["path": "\(configuration.path)"])
    }
    if ownsGroup { try? await group.shutdownGracefully() }
  }

  private func bootstrap() -> ServerBootstrap {
    let high = max(configuration.clientBufferBytes, 1)
    return ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .childChannelOption(.writeBufferWaterMark, value: .init(low: high / 2, high: high))
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { [self] channel in
        peerUser(of: channel).flatMapThrowing { uid in try self.initialize(channel, uid: uid) }
      }
  }

  /// The connecting process's user (SO_PEERCRED).
  private func peerUser(of channel: any Channel) -> EventLoopFuture<UInt32> {
    guard let provider = channel as? any SocketOptionProvider else {
      return channel.eventLoop.makeSucceededFuture(UInt32.max)
    }
    let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
      level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
    return credentials.map { $0.uid }
  }

  /// Linux's `struct ucred` (which Glibc's module hides behind _GNU_SOURCE),
  /// field for field.
  private struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
  }

  private var limits: ClientRegistry.Limits {
    .init(
      total: configuration.maxClients, perUser: configuration.maxClientsPerUser,
      exemptUsers: configuration.exemptUsers ?? [0, geteuid()])
  }

  private func initialize(_ channel: any Channel, uid: UInt32) throws {
    let operations = channel.pipeline.syncOperations
    switch registry.admit(channel, uid: uid, limits: limits) {
    case .refused(let reason):
      try operations.addHandler(RejectionHandler(message: reason))
      return
    case .admittedEvicting(let idle):
      logger.notice("closing an idle socket client to make room for a new one")
      idle.writeAndFlush(
        WireEncoder.error("closed to make room: no command since connecting"), promise: nil)
      idle.close(promise: nil)
    case .admitted:
      break
    }
    let registry = self.registry
    channel.closeFuture.whenComplete { _ in registry.release(channel) }
    try operations.addHandlers([
      LineFramingHandler(
        maxLineBytes: configuration.maxCommandBytes,
        partialTimeout: configuration.partialCommandTimeout),
      CommandDecodingHandler(maxLineBytes: configuration.maxCommandBytes),
      ClientConnectionHandler(environment: environment),
    ])
  }

  private var environment: ClientConnectionHandler.Environment {
    let hz = configuration.sampleMaxHz
    return .init(
      control: control, release: configuration.release,
      clientBufferBytes: configuration.clientBufferBytes,
      sampleInterval: hz > 0 ? .nanoseconds(hz.isFinite ? Int64(1e9 / hz) : 0) : nil,
      idleTimeout: configuration.idleTimeout.map(TimeAmount.init), registry: registry,
      logger: logger)
  }
}
