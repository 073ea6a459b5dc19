import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A connected SOCK_SEQPACKET file descriptor carrying one ATT PDU per packet:
/// an L2CAP socket on the ATT fixed channel in production, a `socketpair` in
/// tests. It owns the descriptor and closes it when released, unless a reader
/// has taken the descriptor over (`releaseDescriptor()`: the daemon reads the
/// notifications on an event loop, whose channel then closes it).
public final class AttBearer: Sendable {
  public let fileDescriptor: Int32
  private let owned = Atomic(true)

  /// The largest ATT_MTU on LE is 517 (Core Spec Vol 3 Part F §3.2.9, a 512-byte
  /// value plus headers); a bigger buffer lets us notice a peer that exceeds it.
  public static let receiveBufferSize = 1024

  /// Takes ownership of `fileDescriptor`.
  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  deinit { if owned.load(ordering: .acquiring) { close(fileDescriptor) } }

  /// Hands the descriptor to a new owner, which must close it: from then on
  /// this bearer neither uses nor closes it, and sends and receives throw
  /// `.bearerBusy`. Nil when it was handed over already.
  public func releaseDescriptor() -> Int32? {
    owned.exchange(false, ordering: .acquiringAndReleasing) ? fileDescriptor : nil
  }

  /// Sends one PDU. MSG_NOSIGNAL: a vanished peer must surface as an error,
  /// not kill the daemon with SIGPIPE.
  public func send(_ pdu: [UInt8]) throws(BluetoothError) {
    guard owned.load(ordering: .acquiring) else { throw .bearerBusy }
    while true {
      let sent = pdu.withUnsafeBytes {
        Glibc.send(fileDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent >= 0 { return }
      let code = errno
      if code == EINTR { continue }
      throw .disconnected(errno: code)
    }
  }

  /// Waits up to `timeoutMilliseconds` for one PDU; `nil` when none came.
  /// End of stream (the peer closed) and socket errors (the kernel reports a
  /// lost LE link as ETIMEDOUT, ECONNRESET or ENOTCONN) become `.disconnected`.
  public func receive(timeoutMilliseconds: Int32) throws(BluetoothError) -> [UInt8]? {
    guard owned.load(ordering: .acquiring) else { throw .bearerBusy }
    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, timeoutMilliseconds)
    if ready == 0 { return nil }
    if ready < 0 {
      if errno == EINTR { return nil }
      throw .disconnected(errno: errno)
    }
    var buffer = [UInt8](repeating: 0, count: Self.receiveBufferSize)
    while true {
      let count = buffer.withUnsafeMutableBytes {
        recv(fileDescriptor, $0.baseAddress, $0.count, 0)
      }
      if count > 0 { return Array(buffer[0..<count]) }
      if count == 0 { throw .disconnected(errno: nil) }
      let code = errno
      if code == EINTR { continue }
      if code == EAGAIN || code == EWOULDBLOCK { return nil }
      throw .disconnected(errno: code)
    }
  }
}
