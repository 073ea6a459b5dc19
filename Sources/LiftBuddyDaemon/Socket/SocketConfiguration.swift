import Glibc

/// Where and how the daemon's socket listens, and the bounds that keep one
/// client from costing the others anything.
public struct SocketConfiguration: Sendable {
  /// Where the daemon listens under systemd (`RuntimeDirectory=liftbuddy`),
  /// and so where `liftbuddy watch` looks first.
  public static let defaultPath = "/run/liftbuddy/liftbuddy.sock"

  public var path: String
  /// Applied with chmod after bind: group members may connect, others not.
  public var mode: mode_t = 0o660
  /// Group to chown the socket to (by name); nil keeps the daemon's group.
  public var group: String?
  /// Connections beyond this are told so and closed, unless an idle one
  /// (no valid command yet) can make room: the oldest idle one is closed
  /// instead.
  public var maxClients: Int = 256
  /// Connections a peer user may hold, unless it is the daemon's own user
  /// or root (`exemptUsers`): one local user cannot take every slot.
  public var maxClientsPerUser: Int = 64
  /// Users the per-user cap does not count; nil: the daemon's user and root.
  public var exemptUsers: Set<UInt32>?
  /// A connection that has sent no valid command (a `watch`, a `status`…)
  /// this long after connecting is told so and closed; nil: never.
  public var idleTimeout: Duration? = .seconds(5)
  /// Bytes queued for a client but not yet written before it is dropped as
  /// too slow. This is what bounds the daemon's memory per subscriber.
  public var clientBufferBytes: Int = 256 * 1024
  /// Per-client ceiling on `sample` objects per second; live plots need no
  /// more, and samples would otherwise dominate the traffic.
  public var sampleMaxHz: Double = 10
  /// Longest command line accepted (excluding its newline).
  public var maxCommandBytes: Int = 4096
  /// A client that starts a command line and does not finish it within this
  /// time is told so and disconnected; nil waits forever. A half line never
  /// stalls anyone else either way.
  public var partialCommandTimeout: Duration? = .seconds(30)
  /// The `release` field of the `version` object.
  public var release: String = "0.1.0"

  public init(
    path: String, mode: mode_t = 0o660, group: String? = nil, maxClients: Int = 256,
    clientBufferBytes: Int = 256 * 1024, sampleMaxHz: Double = 10, maxCommandBytes: Int = 4096
  ) {
    self.path = path
    self.mode = mode
    self.group = group
    self.maxClients = maxClients
    self.clientBufferBytes = clientBufferBytes
    self.sampleMaxHz = sampleMaxHz
    self.maxCommandBytes = maxCommandBytes
  }
}
