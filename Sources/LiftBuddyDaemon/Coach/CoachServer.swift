import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The room view on its own, with no clip (`liftbuddy coach`): the web
/// view's server showing only the room page, at `/`, fed by a `CoachFeed`.
/// A daemon with `coach = true` wires the same two together beside its rack.
public final class CoachServer: Sendable {
  private let group: MultiThreadedEventLoopGroup
  private let server: WebServer
  private let feedConfiguration: CoachConfiguration
  private let logger: Logger
  private let feed = NIOLockedValueBox<CoachFeed?>(nil)

  public init(coach: CoachConfiguration, listen: WebAddress, siteRoot: String?, logger: Logger) {
    group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var web = WebConfiguration(
      address: listen, pairingCode: .random(), siteRoot: siteRoot,
      // No report directory: the history stays empty.
      reportDirectory: "")
    web.roomView = true
    web.roomIsHome = true
    server = WebServer(
      configuration: web, control: NoClipControl(source: "mqtt:\(coach.broker)"), logger: logger,
      eventLoopGroup: group)
    feedConfiguration = coach
    self.logger = logger
  }

  /// Listens, then starts following the broker; returns the address bound.
  @discardableResult
  public func start() async throws -> SocketAddress {
    let bound: SocketAddress
    do {
      bound = try await server.start()
    } catch {
      try? await group.shutdownGracefully()
      throw error
    }
    let started = CoachFeed(
      configuration: feedConfiguration, logger: logger, update: server.publishRoom)
    feed.withLockedValue { $0 = started }
    return bound
  }

  public func shutdown() async {
    let running = feed.withLockedValue { feed in
      defer { feed = nil }
      return feed
    }
    await running?.close()
    await server.shutdown()
    try? await group.shutdownGracefully()
  }
}
