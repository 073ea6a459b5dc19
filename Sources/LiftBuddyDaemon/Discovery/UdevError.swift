#if canImport(Glibc)
  import Glibc
#endif

/// libudev failed. Rare (no /sys, out of memory, a sandbox without netlink),
/// but `serial:auto` must say why it found nothing rather than just "no clip".
public struct UdevError: Error, Hashable, Sendable, CustomStringConvertible {
  public var operation: String
  public var errno: Int32

  public init(_ operation: String, errno: Int32) {
    self.operation = operation
    self.errno = errno
  }

  public var description: String {
    let text = strerror(errno).map { String(cString: $0) } ?? "unknown error"
    return
      "udev: \(operation) failed (errno \(errno), \(text)); is /sys mounted and, for hotplug, AF_NETLINK allowed by RestrictAddressFamilies=? Use serial:/dev/ttyUSB0 to name the port instead"
  }
}
