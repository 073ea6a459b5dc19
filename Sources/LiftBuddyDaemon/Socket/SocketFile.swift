import Glibc

/// The socket's entry in the file system: clearing what a crashed daemon left
/// behind, setting permissions, and removing it again only if it is still
/// ours.
struct SocketFile: Sendable {
  let path: String
  /// Device and inode of the socket we bound, so that shutdown never unlinks
  /// a socket that a newer daemon has since bound at the same path.
  private(set) var identity: (dev: UInt64, ino: UInt64)?

  init(path: String) { self.path = path }

  /// Makes the path free for bind: nothing there, or a socket nobody listens
  /// on (a crash leftover, removed). A live socket or any other kind of file
  /// is an error: the first means a second daemon, the second is someone
  /// else's file.
  func clearStale() throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw SocketServerError.system(call: "lstat", path: path, errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw SocketServerError.notASocket(path: path) }
    switch probe() {
    case 0: throw SocketServerError.inUse(path: path)
    case ECONNREFUSED:
      guard unlink(path) == 0 || errno == ENOENT else {
        throw SocketServerError.system(call: "unlink", path: path, errno: errno)
      }
    case let code: throw SocketServerError.system(call: "connect", path: path, errno: code)
    }
  }

  /// Tries to connect; returns 0 when something listens, else the errno.
  private func probe() -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return ENAMETOOLONG }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    return result == 0 ? 0 : errno
  }

  /// chmod, then chown to the group. Done after bind, so for a moment the
  /// socket has the umask's mode; the daemon's umask should not be looser.
  func applyPermissions(mode: mode_t, group: String?) throws {
    if let group {
      guard let entry = getgrnam(group) else { throw SocketServerError.unknownGroup(group) }
      guard chown(path, uid_t.max, entry.pointee.gr_gid) == 0 else {
        throw SocketServerError.system(call: "chown", path: path, errno: errno)
      }
    }
    guard chmod(path, mode) == 0 else {
      throw SocketServerError.system(call: "chmod", path: path, errno: errno)
    }
  }

  /// Remembers which file we bound, right after bind.
  mutating func recordIdentity() throws {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      throw SocketServerError.system(call: "lstat", path: path, errno: errno)
    }
    identity = (UInt64(info.st_dev), UInt64(info.st_ino))
  }

  /// Unlinks the socket if the path still names the one we bound.
  func removeIfOurs() {
    guard let identity else { return }
    var info = stat()
    guard lstat(path, &info) == 0, UInt64(info.st_dev) == identity.dev,
      UInt64(info.st_ino) == identity.ino
    else { return }
    unlink(path)
  }
}
