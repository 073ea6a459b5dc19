import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The lifter's screen: the live page, the last set's report, the history,
/// and the controls, served over HTTP and a WebSocket on the daemon's event
/// loops. It is fed the events the Unix socket gets (`WebSink`), encoded by
/// the same `WireEncoder`: one event model, no second analyzer.
public final class WebServer: Sendable {
  private enum State {
    case idle
    case running(any Channel)
    case stopped
  }

  private let configuration: WebConfiguration
  private let group: any EventLoopGroup
  private let hub: ViewerHub
  /// The room view's pages (`/room/events`).
  private let roomHub: ViewerHub
  private let environment: WebRequestHandler.Environment
  private let connections = NIOLockedValueBox((open: 0, closed: false))
  private let state = NIOLockedValueBox(State.idle)
  private let logger: Logger

  /// The folder of the page's files beside an executable built by SwiftPM
  /// (`.build/release/LiftBuddy_LiftBuddyDaemon.resources/Static`), else
  /// where docs/web.md installs them.
  public static func defaultSiteRoot(executable: URL? = Bundle.main.executableURL) -> String {
    let dir = (executable ?? URL(fileURLWithPath: "/proc/self/exe")).resolvingSymlinksInPath()
      .deletingLastPathComponent().path
    let built = dir + "/LiftBuddy_LiftBuddyDaemon.resources/Static"
    return FileManager.default.fileExists(atPath: built + "/index.html")
      ? built : "/usr/local/share/liftbuddy/web"
  }

  public init(
    configuration: WebConfiguration, control: any DaemonControl, logger: Logger,
    eventLoopGroup: any EventLoopGroup
  ) {
    self.configuration = configuration
    self.group = eventLoopGroup
    self.logger = logger
    self.hub = ViewerHub(group: eventLoopGroup)
    self.roomHub = ViewerHub(group: eventLoopGroup)
    var skipped: [String] = []
    let site = StaticSite(root: configuration.siteRoot, skipped: &skipped)
    for line in skipped { logger.warning("web view: \(line)") }
    if site.file(at: "/") == nil {
      logger.error(
        "web view: no index.html in \(configuration.siteRoot ?? "(none)"); the page will be 404 (see docs/web.md, http_root)"
      )
    }
    self.environment = .init(
      site: site, history: HistoryIndex(directory: configuration.reportDirectory, logger: logger),
      commands: WebCommandGate(
        control: control, pairingCode: configuration.pairingCode, release: configuration.release),
      maxBodyBytes: configuration.maxBodyBytes, threadPool: .singleton, logger: logger,
      home: configuration.roomIsHome ? "/room.html" : "/index.html",
      roomView: configuration.roomView)
  }

  /// Live pages connected now.
  public var viewerCount: Int { hub.count }

  /// Room pages connected now.
  public var roomViewerCount: Int { roomHub.count }

  /// Binds and listens, and logs the URL and the pairing code; returns the
  /// address bound (its port, when 0 was asked).
  @discardableResult
  public func start() async throws -> SocketAddress {
    let channel = try await bootstrap().bind(
      host: configuration.address.host, port: configuration.address.port
    ).get()
    state.withLockedValue { $0 = .running(channel) }
    let bound = channel.localAddress!
    let shown = WebAddress(
      host: bound.ipAddress ?? configuration.address.host, port: bound.port ?? 0)
    if configuration.roomIsHome {
      // Nothing to steer there, so no pairing code to tell.
      logger.notice("room view on http://\(shown)/")
    } else {
      let room = configuration.roomView ? "; room view at http://\(shown)/room" : ""
      logger.notice("web view on http://\(shown)/ pairing code \(configuration.pairingCode)\(room)")
    }
    return bound
  }

  /// Hands an event to every open page; returns at once.
  public func publish(_ event: DaemonEvent) { hub.publish(event) }

  /// Hands a room view object (`CoachFeed`'s) to every open room page, and
  /// keeps the latest of each key for pages opened later; returns at once.
  public func publishRoom(key: String, frame: ByteBuffer) {
    roomHub.publish(frame: frame, key: key)
  }

  /// Stops accepting, tells every page the daemon is going away (it will
  /// reconnect by itself), and closes them.
  public func shutdown() async {
    let channel: (any Channel)? = state.withLockedValue { state in
      defer { state = .stopped }
      if case .running(let c) = state { return c }
      return nil
    }
    connections.withLockedValue { $0.closed = true }
    try? await channel?.close()
    for future in hub.closeAll() + roomHub.closeAll() { try? await future.get() }
  }

  private func bootstrap() -> ServerBootstrap {
    let high = max(configuration.viewerBufferBytes, 1)
    return ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.writeBufferWaterMark, value: .init(low: high / 2, high: high))
      // A phone that left the Wi-Fi without closing is found by the kernel.
      .childChannelOption(.socketOption(.so_keepalive), value: 1)
      .childChannelInitializer { [self] channel in
        channel.eventLoop.makeCompletedFuture { try self.initialize(channel) }
      }
  }

  private func initialize(_ channel: any Channel) throws {
    let limit = configuration.maxConnections
    let admitted = connections.withLockedValue { c -> Bool in
      guard !c.closed, c.open < limit else { return false }
      c.open += 1
      return true
    }
    let operations = channel.pipeline.syncOperations
    guard admitted else {
      try operations.addHandler(
        WebRejectionHandler())
      return
    }
    let connections = self.connections
    channel.closeFuture.whenComplete { _ in connections.withLockedValue { $0.open -= 1 } }

    let requestGuard = RequestGuard(
      maxBytes: configuration.maxRequestBytes, timeout: configuration.requestTimeout)
    let requestHandler = WebRequestHandler(environment: environment)
    let hubs = ["/events": hub].merging(configuration.roomView ? ["/room/events": roomHub] : [:]) {
      $1
    }
    let pingInterval = configuration.viewerPingInterval
    let upgrader = NIOWebSocketServerUpgrader(
      maxFrameSize: 4096,
      shouldUpgrade: { channel, head in
        let path = String(head.uri.prefix { $0 != "?" })
        return channel.eventLoop.makeSucceededFuture(hubs[path] != nil ? HTTPHeaders() : nil)
      },
      upgradePipelineHandler: { channel, head in
        channel.eventLoop.makeCompletedFuture {
          guard let hub = hubs[String(head.uri.prefix { $0 != "?" })] else { return }
          try channel.pipeline.syncOperations.addHandler(
            ViewerHandler(hub: hub, pingInterval: pingInterval))
        }
      })
    try operations.addHandler(requestGuard, name: RequestGuard.name)
    try operations.configureHTTPServerPipeline(
      withServerUpgrade: (
        upgraders: [upgrader],
        completionHandler: { context in
          // A live page from here on: no request bounds, no HTTP handler.
          context.pipeline.removeHandler(name: RequestGuard.name, promise: nil)
          context.pipeline.removeHandler(name: WebRequestHandler.name, promise: nil)
        }
      ), withErrorHandling: true)
    try operations.addHandler(requestHandler, name: WebRequestHandler.name)
  }
}
