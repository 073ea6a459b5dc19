#if canImport(Glibc)
  import Glibc
#endif

/// A connected SOCK_SEQPACKET file descriptor carrying one ATT PDU per packet:
/// an L2CAP socket on the ATT fixed channel in production, a `socketpair` in
/// tests. It owns the descriptor and closes it when released, so the last user
/// of the link (often the notification reader thread) decides when it goes.
public final class AttBearer: Sendable {
  public let fileDescriptor: Int32

  /// The largest ATT_MTU on LE is 517 (Core Spec Vol 3 Part F §3.2.9, a 512-byte
  /// value plus headers); a bigger buffer lets us notice a peer that exceeds it.
  static let receiveBufferSize = 1024

  /// Takes ownership of `fileDescriptor`.
  public init(fileDescriptor: Int32) {
    self.fileDescriptor = fileDescriptor
  }

  deinit { close(fileDescriptor) }

  /// Sends one PDU. MSG_NOSIGNAL: a vanished peer must surface as an error,
  /// not kill the daemon with SIGPIPE.
  public func send(_ pdu: [UInt8]) throws(BluetoothError) {
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
