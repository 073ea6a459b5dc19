import SystemPackage

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// Opens a TTY the way the clip needs it: raw 8N1 at a given baud rate, no
/// controlling terminal, no echo, no line discipline, non-blocking (the
/// reader waits in poll(2)).
enum SerialPort {
  struct OpenError: Error, CustomStringConvertible {
    var path: String
    var step: String
    var errno: Errno
    var description: String { "\(step) \(path): \(errno.description) (\(errno.rawValue))" }
  }

  static func open(path: String, baud: Int) throws(OpenError) -> FileDescriptor {
    let fd: FileDescriptor
    do {
      fd = try FileDescriptor.open(
        FilePath(path), .readWrite,
        options: [.nonBlocking, .closeOnExec, FileDescriptor.OpenOptions(rawValue: O_NOCTTY)])
    } catch {
      throw OpenError(path: path, step: "cannot open", errno: error as? Errno ?? .ioError)
    }
    do {
      try configure(fd, baud: baud)
    } catch {
      try? fd.close()
      throw OpenError(path: path, step: "cannot configure", errno: error)
    }
    return fd
  }

  /// cfmakeraw (8 data bits, no parity, one stop bit, no flow control),
  /// CLOCAL so that a missing carrier does not hang up, CREAD to receive.
  private static func configure(_ fd: FileDescriptor, baud: Int) throws(Errno) {
    var t = termios()
    guard tcgetattr(fd.rawValue, &t) == 0 else { throw Errno(rawValue: errno) }
    cfmakeraw(&t)
    t.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
    t.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS))
    guard cfsetspeed(&t, speed(baud)) == 0 else { throw Errno(rawValue: errno) }
    guard tcsetattr(fd.rawValue, TCSANOW, &t) == 0 else { throw Errno(rawValue: errno) }
    // Bytes queued before we opened belong to nobody's session.
    _ = tcflush(fd.rawValue, TCIFLUSH)
    // Exclusive use, as gpsd does: a second reader (a stray `cat`, a modem
    // manager) would steal lines. Best effort; ptys and some drivers refuse.
    _ = ioctl(fd.rawValue, UInt(TIOCEXCL))
  }

  /// The termios constant for a rate `DaemonConfiguration` accepted.
  static func speed(_ baud: Int) -> speed_t {
    let b: Int32 =
      switch baud {
      case 1200: B1200
      case 2400: B2400
      case 4800: B4800
      case 9600: B9600
      case 19200: B19200
      case 38400: B38400
      case 57600: B57600
      case 230_400: B230400
      case 460_800: B460800
      case 921_600: B921600
      default: B115200
      }
    return speed_t(b)
  }
}
