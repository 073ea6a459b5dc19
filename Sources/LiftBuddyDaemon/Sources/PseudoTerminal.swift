import Synchronization
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair that stands in for a serial clip: bytes written
/// to `master` come out of the slave device (`slavePath`), which a reader
/// opens like any TTY. The slave is kept open here, in raw mode, so that the
/// pair outlives the readers that come and go.
public final class PseudoTerminal: Sendable {
  public let slavePath: String
  private let master: FileDescriptor
  private let heldSlave: FileDescriptor
  /// Whether the descriptors are closed; held while writing, so that they
  /// are closed exactly once and never under a write.
  private let closed = Mutex(false)

  public init() throws(Errno) {
    // posix_openpt/grantpt/ptsname are hidden from Swift's Glibc module
    // (they need _XOPEN_SOURCE), so this is what they do on Linux: open the
    // multiplexer, unlock the slave (TIOCSPTLCK), ask its number (TIOCGPTN).
    let m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard m >= 0 else { throw Errno(rawValue: errno) }
    var unlock: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(m, Self.TIOCSPTLCK, &unlock) == 0, ioctl(m, Self.TIOCGPTN, &number) == 0 else {
      let e = errno
      _ = Glibc.close(m)
      throw Errno(rawValue: e)
    }
    let path = "/dev/pts/\(number)"
    let s = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard s >= 0 else {
      let e = errno
      _ = Glibc.close(m)
      throw Errno(rawValue: e)
    }
    var t = termios()
    tcgetattr(s, &t)
    cfmakeraw(&t)
    tcsetattr(s, TCSANOW, &t)
    master = FileDescriptor(rawValue: m)
    slavePath = path
    heldSlave = FileDescriptor(rawValue: s)
  }

  // asm-generic/ioctls.h: _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int).
  private static let TIOCSPTLCK: UInt = 0x4004_5431
  private static let TIOCGPTN: UInt = 0x8004_5430

  /// Writes all of `bytes` to the master side.
  public func write(_ bytes: [UInt8]) throws(Errno) {
    try closed.withLock { (closed: inout Bool) throws(Errno) in
      guard !closed else { throw Errno.badFileDescriptor }
      do { _ = try bytes.withUnsafeBytes { try master.writeAll($0) } } catch {
        throw error as? Errno ?? .ioError
      }
    }
  }

  /// Closes both sides: readers of the slave see a hang-up (EIO), as when
  /// a USB adapter is unplugged.
  public func close() {
    closed.withLock { closed in
      guard !closed else { return }
      closed = true
      try? heldSlave.close()
      try? master.close()
    }
  }

  deinit { close() }
}
