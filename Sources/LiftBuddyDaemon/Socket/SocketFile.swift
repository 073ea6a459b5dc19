import NIOCore
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// The socket's entry in the file system, set up without ever following a
/// path someone else could change:
///
/// - The directory is opened once and everything after goes through its
///   descriptor. A directory that others may write is refused unless it is
///   sticky (`/tmp`), where nobody can remove or rename our entries.
/// - What is at the path already: nothing; a socket of ours nobody listens
///   on (a crash leftover, removed); anything else is refused with a
///   message saying what it is: a live socket (a second daemon), another
///   user's socket, a file that is not a socket.
/// - The socket is bound inside a private directory made for the purpose
///   (mode 0700), given its group and mode there, where nobody else can
///   reach it, and only then linked into place (`linkat`, which never
///   replaces a name): it appears at its path already with its final owner
///   and mode, and a name planted there meanwhile is never replaced.
struct SocketFile: Sendable {
  let path: String
  private let directory: DirectoryHandle
  private let name: String
  /// Device and inode of the socket we bound, so that shutdown never unlinks
  /// a socket that a newer daemon has since bound at the same path.
  private(set) var identity: (dev: UInt64, ino: UInt64)?

  init(path: String) throws(SocketServerError) {
    self.path = path
    let file = FilePath(path)
    guard let last = file.lastComponent?.string, last != "." && last != ".." else {
      throw .system(call: "bind", path: path, errno: EINVAL)
    }
    name = last
    let parent = file.removingLastComponent().string
    do {
      directory = try DirectoryHandle(path: parent.isEmpty ? "." : parent, create: false)
    } catch {
      throw .system(call: "open", path: parent.isEmpty ? "." : parent, errno: error.rawValue)
    }
    try checkDirectory()
  }

  /// Refuses a directory that others may write unless it is sticky, and
  /// one that belongs to someone other than us or root.
  private func checkDirectory() throws(SocketServerError) {
    var info = stat()
    guard fstat(directory.descriptor.rawValue, &info) == 0 else {
      throw .system(call: "fstat", path: directory.path, errno: errno)
    }
    let othersMayWrite = info.st_mode & (S_IWGRP | S_IWOTH) != 0
    let sticky = info.st_mode & S_ISVTX != 0
    let ownerOK = info.st_uid == geteuid() || info.st_uid == 0
    guard ownerOK, !othersMayWrite || sticky else {
      throw .unsafeDirectory(
        path: directory.path, mode: UInt32(info.st_mode & 0o7777), owner: info.st_uid)
    }
  }

  /// Binds a new socket at the path with `mode` and `group`; returns its
  /// descriptor, ready for `listen`.
  mutating func bind(mode: mode_t, group: String?) throws(SocketServerError) -> CInt {
    let gid: gid_t?
    if let group {
      guard let entry = getgrnam(group) else { throw .unknownGroup(group) }
      gid = entry.pointee.gr_gid
    } else {
      gid = nil
    }
    // The final path must fit in sun_path too, or clients could not connect.
    _ = try address(for: path)
    try clearStale()

    let privateName = ".\(name.prefix(8)).\(DirectoryHandle.randomSuffix())"
    guard mkdirat(directory.descriptor.rawValue, privateName, 0o700) == 0 else {
      throw .system(call: "mkdir", path: directory.path + "/" + privateName, errno: errno)
    }
    defer { _ = unlinkat(directory.descriptor.rawValue, privateName, AT_REMOVEDIR) }
    let privateDir = openat(
      directory.descriptor.rawValue, privateName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    guard privateDir >= 0 else {
      throw .system(call: "open", path: directory.path + "/" + privateName, errno: errno)
    }
    defer { Glibc.close(privateDir) }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .system(call: "socket", path: path, errno: errno) }
    do throws(SocketServerError) {
      // Bound through the private directory's descriptor (short, and no
      // path to race); the full path only where /proc is missing.
      var bound = Int32(-1)
      for candidate in [
        "/proc/self/fd/\(privateDir)/s", directory.path + "/" + privateName + "/s",
      ] {
        guard let address = try? SocketAddress(unixDomainSocketPath: candidate) else { continue }
        bound = address.withSockAddr { Glibc.bind(fd, $0, socklen_t($1)) }
        if bound == 0 || errno != ENOENT { break }
      }
      guard bound == 0 else { throw .system(call: "bind", path: path, errno: errno) }
      // In our private directory nobody else can swap the name: these
      // calls reach the socket we just bound.
      if let gid, fchownat(privateDir, "s", uid_t.max, gid, AT_SYMLINK_NOFOLLOW) != 0 {
        throw .system(call: "chown", path: path, errno: errno)
      }
      guard fchmodat(privateDir, "s", mode, 0) == 0 else {
        throw .system(call: "chmod", path: path, errno: errno)
      }
      // A hard link, not a rename: `linkat` never replaces what is there.
      guard linkat(privateDir, "s", directory.descriptor.rawValue, name, 0) == 0 else {
        let code = errno
        if code == EEXIST { throw .inUse(path: path) }
        throw .system(call: "link", path: path, errno: code)
      }
      _ = unlinkat(privateDir, "s", 0)
      try recordIdentity()
      return fd
    } catch {
      _ = unlinkat(privateDir, "s", 0)
      Glibc.close(fd)
      throw error
    }
  }

  /// NIO's address for a path, with a message that names the limit.
  private func address(for path: String) throws(SocketServerError) -> SocketAddress {
    do {
      return try SocketAddress(unixDomainSocketPath: path)
    } catch {
      let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
      throw .pathTooLong(path: path, bytes: path.utf8.count, limit: limit)
    }
  }

  /// Makes the name free for our socket, or says why it is not.
  private func clearStale() throws(SocketServerError) {
    var info = stat()
    guard fstatat(directory.descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return }
      throw .system(call: "stat", path: path, errno: errno)
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
    guard info.st_uid == geteuid() else { throw .foreignSocket(path: path, owner: info.st_uid) }
    switch probe() {
    case 0: throw .inUse(path: path)
    case ECONNREFUSED:
      guard unlinkat(directory.descriptor.rawValue, name, 0) == 0 || errno == ENOENT else {
        throw .system(call: "unlink", path: path, errno: errno)
      }
    case let code: throw .system(call: "connect", path: path, errno: code)
    }
  }

  /// Tries to connect; returns 0 when something listens, else the errno.
  private func probe() -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return errno }
    defer { Glibc.close(fd) }
    guard let address = try? SocketAddress(unixDomainSocketPath: path) else { return ENAMETOOLONG }
    let result = address.withSockAddr { connect(fd, $0, socklen_t($1)) }
    return result == 0 ? 0 : errno
  }

  /// Remembers which file we bound, right after the link.
  private mutating func recordIdentity() throws(SocketServerError) {
    var info = stat()
    guard fstatat(directory.descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      throw .system(call: "stat", path: path, errno: errno)
    }
    identity = (UInt64(info.st_dev), UInt64(info.st_ino))
  }

  /// Unlinks the socket if the name still is the one we bound.
  func removeIfOurs() {
    guard let identity else { return }
    var info = stat()
    guard fstatat(directory.descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
      UInt64(info.st_dev) == identity.dev, UInt64(info.st_ino) == identity.ino
    else { return }
    _ = unlinkat(directory.descriptor.rawValue, name, 0)
  }
}
