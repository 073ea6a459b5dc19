import SystemPackage

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// A self-pipe that wakes a thread blocked in poll(2): the reading thread
/// polls its device and the pipe's read end; `wake()` (from any thread, e.g.
/// a stream's termination handler) makes that poll return at once.
final class WakePipe: Sendable {
  let readEnd: FileDescriptor
  private let writeEnd: FileDescriptor

  init() throws(Errno) {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw Errno(rawValue: errno) }
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    readEnd = FileDescriptor(rawValue: fds[0])
    writeEnd = FileDescriptor(rawValue: fds[1])
  }

  func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd.rawValue, &byte, 1)
  }

  /// Whether `wake()` was called (the pipe stays readable once woken).
  var isWoken: Bool {
    var p = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&p, 1, 0) > 0
  }

  /// Sleeps up to `seconds`; returns false if woken before.
  func sleep(seconds: Double) -> Bool {
    var p = pollfd(fd: readEnd.rawValue, events: Int16(POLLIN), revents: 0)
    let ms = Int32(max(0, min(seconds * 1000, Double(Int32.max))))
    while true {
      let r = poll(&p, 1, ms)
      if r < 0, errno == EINTR { continue }
      return r == 0
    }
  }

  deinit {
    try? readEnd.close()
    try? writeEnd.close()
  }
}
