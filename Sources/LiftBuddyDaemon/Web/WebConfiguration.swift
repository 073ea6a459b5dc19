import NIOCore

/// What the web view needs to know: where to listen, who may steer, and the
/// bounds that keep strangers on the gym's network from hurting the daemon.
public struct WebConfiguration: Sendable {
  public var address: WebAddress
  /// Required for `set`, `start_set` and `end_set`.
  public var pairingCode: PairingCode
  /// The page's own files (HTML, CSS, JS), read once at start.
  public var siteRoot: String?
  /// The daemon's report directory: the history is read from it.
  public var reportDirectory: String
  public var release: String
  /// Open TCP connections, viewers and requests together; the next one is
  /// answered 503 and closed (the Unix socket's clients are bounded the same way).
  public var maxConnections = 128
  /// A request's head and body together; past this the connection gets 431 and is closed.
  public var maxRequestBytes = 16 * 1024
  public var maxBodyBytes = 4096
  /// A request not complete by then is closed (a slow client holds nothing longer).
  public var requestTimeout = TimeAmount.seconds(10)
  /// Bytes queued for a viewer that does not read before it is dropped.
  public var viewerBufferBytes = 256 * 1024
  /// A viewer is pinged this often and closed if the last ping is unanswered.
  public var viewerPingInterval = TimeAmount.seconds(20)
  /// The coach's room view (`/room`, live objects on `/room/events`; see
  /// docs/mqtt.md), fed by a `CoachFeed`: on with `coach`, and in
  /// `liftbuddy coach`, where it is also the page at `/`.
  public var roomView = false
  public var roomIsHome = false

  /// `release` defaults to the one the Unix socket's `version` object names.
  public init(
    address: WebAddress, pairingCode: PairingCode, siteRoot: String?, reportDirectory: String,
    release: String = SocketConfiguration(path: "").release
  ) {
    self.address = address
    self.pairingCode = pairingCode
    self.siteRoot = siteRoot
    self.reportDirectory = reportDirectory
    self.release = release
  }
}
