import CBluetooth

#if canImport(Glibc)
  import Glibc
#endif

/// Opens the LE link to a clip: an L2CAP socket on the ATT fixed channel, the
/// transport BlueZ's own GATT client uses. Needs no capability, unlike scanning.
public enum L2capAttSocket {
  /// The ATT fixed channel on LE-U (Core Spec Vol 3 Part A §2.1, Table 2.3).
  /// The kernel rejects a sockaddr with both a PSM and a CID, so l2_psm stays 0.
  public static let attChannelID: UInt16 = 0x0004

  /// Connects to `address` through the adapter whose address is `local`
  /// (nil: any, the kernel routes), waiting at most `timeout` for the clip to
  /// answer. Blocking: call it from `DedicatedThread.run`.
  public static func connect(
    to address: BluetoothAddress, type: LEAddressType, from local: BluetoothAddress? = nil,
    timeout: Duration = .seconds(10)
  ) throws(BluetoothError) -> AttBearer {
    let fd = try openSocket()
    let bearer = AttBearer(fileDescriptor: fd)  // closes fd on every error path below

    var local = socketAddress(
      local ?? BluetoothAddress(bytes: [0, 0, 0, 0, 0, 0])!, type: .public)
    if withSockaddr(&local, { bind(fd, $0, $1) }) != 0 { throw .system(.connect, errno: errno) }

    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    var remote = socketAddress(address, type: type)
    if withSockaddr(&remote, { Glibc.connect(fd, $0, $1) }) != 0 {
      guard errno == EINPROGRESS else { throw .system(.connect, errno: errno) }
      var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
      let (seconds, attoseconds) = timeout.components
      let ready = poll(
        &descriptor, 1, Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000))
      if ready == 0 { throw .system(.connect, errno: ETIMEDOUT) }
      var soError: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
      if ready < 0 || soError != 0 { throw .system(.connect, errno: ready < 0 ? errno : soError) }
    }
    _ = fcntl(fd, F_SETFL, flags)
    return bearer
  }

  /// `socket(AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP)`; on a kernel without
  /// Bluetooth this is where EAFNOSUPPORT shows up.
  public static func openSocket() throws(BluetoothError) -> Int32 {
    let fd = socket(
      AF_BLUETOOTH, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_L2CAP)
    guard fd >= 0 else { throw .system(.openSocket, errno: errno) }
    return fd
  }

  static func socketAddress(_ address: BluetoothAddress, type: LEAddressType) -> sockaddr_l2 {
    var sa = sockaddr_l2()
    sa.l2_family = sa_family_t(AF_BLUETOOTH)
    sa.l2_psm = 0
    sa.l2_cid = attChannelID.littleEndian  // htobs
    let le = address.littleEndianBytes
    sa.l2_bdaddr = bdaddr_t(b: (le[0], le[1], le[2], le[3], le[4], le[5]))
    sa.l2_bdaddr_type = type.socketAddressType
    return sa
  }

  private static func withSockaddr(
    _ sa: inout sockaddr_l2, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    withUnsafePointer(to: &sa) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_l2>.size))
      }
    }
  }
}
