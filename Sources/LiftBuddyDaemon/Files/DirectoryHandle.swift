import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// A directory held open by descriptor, so that every file made in it lands
/// in the directory that was opened, whatever later happens to its path: an
/// output directory swapped for a symlink while the daemon runs cannot
/// redirect a single write.
///
/// Files are created with `O_CREAT | O_EXCL | O_NOFOLLOW` under names nobody
/// can guess, then renamed into place with `renameat` and made durable with
/// `fsync` of this descriptor. Anyone who can write in the directory can
/// still fill it, but can no longer make the daemon write through a planted
/// symlink or truncate a file of their choosing.
public final class DirectoryHandle: Sendable {
  public let path: String
  public let descriptor: SystemPackage.FileDescriptor

  /// Opens `path` as a directory, creating it (and its parents) first when
  /// `create` is set. A regular file, or a dangling symlink, at `path` is
  /// an error, so that a wrong `output_dir` is refused at start.
  public init(path: String, create: Bool) throws(Errno) {
    self.path = path
    if create { try Self.makeDirectories(path) }
    do {
      descriptor = try FileDescriptor.open(
        FilePath(path), .readOnly, options: [.directory, .closeOnExec])
    } catch {
      throw error as? Errno ?? .ioError
    }
  }

  deinit { try? descriptor.close() }

  /// A new file for writing, at a fresh unpredictable name `prefix` + 16 hex
  /// digits; fails rather than open anything that is already there.
  public func createExclusive(prefix: String, permissions: FilePermissions) throws(Errno)
    -> (name: String, file: SystemPackage.FileDescriptor)
  {
    // A collision of 64 random bits means someone is guessing: retry a few
    // times, then report it.
    for _ in 0..<4 {
      let name = prefix + Self.randomSuffix()
      let fd = openat(
        descriptor.rawValue, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
        permissions.rawValue)
      if fd >= 0 { return (name, FileDescriptor(rawValue: fd)) }
      if errno != EEXIST { throw Errno(rawValue: errno) }
    }
    throw Errno.fileExists
  }

  /// `renameat` within this directory.
  public func rename(_ from: String, to: String) throws(Errno) {
    guard renameat(descriptor.rawValue, from, descriptor.rawValue, to) == 0 else {
      throw Errno(rawValue: errno)
    }
  }

  /// Removes a name (never following it: unlink does not).
  public func remove(_ name: String) {
    _ = unlinkat(descriptor.rawValue, name, 0)
  }

  /// Makes the directory's entries durable (after a rename).
  public func sync() throws(Errno) {
    guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
  }

  /// Removes the regular files owned by this process's user whose names
  /// `isOurs` accepts: temporary files left by a run that was killed
  /// mid-write. Symlinks, directories and other users' files are left
  /// alone. Returns the names removed.
  @discardableResult
  public func removeStale(where isOurs: (String) -> Bool) -> [String] {
    regularFiles(where: isOurs).filter { unlinkat(descriptor.rawValue, $0, 0) == 0 }
  }

  /// The names `isOurs` accepts of the regular files in the directory that
  /// this process's user owns, sorted; symlinks, directories and other
  /// users' files are left out.
  public func regularFiles(where isOurs: (String) -> Bool) -> [String] {
    let copy = dup(descriptor.rawValue)
    guard copy >= 0, let stream = fdopendir(copy) else {
      if copy >= 0 { close(copy) }
      return []
    }
    defer { closedir(stream) }
    // The copy shares the descriptor's offset, which an earlier listing
    // left at the end.
    rewinddir(stream)
    var names: [String] = []
    let uid = geteuid()
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      guard isOurs(name) else { continue }
      var info = stat()
      guard fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
        info.st_mode & S_IFMT == S_IFREG, info.st_uid == uid
      else { continue }
      names.append(name)
    }
    return names.sorted()
  }

  /// The bytes of a file in the directory, never through a symlink; a file
  /// longer than `limit` bytes is an error (`fileTooLarge`).
  public func read(_ name: String, limit: Int) throws(Errno) -> [UInt8] {
    let fd = openat(descriptor.rawValue, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard fd >= 0 else { throw Errno(rawValue: errno) }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw Errno(rawValue: errno)
      }
      if n == 0 { return bytes }
      bytes += chunk[0..<n]
      if bytes.count > limit { throw Errno.fileTooLarge }
    }
  }

  /// 16 lowercase hex digits from the system's random source.
  static func randomSuffix() -> String {
    var generator = SystemRandomNumberGenerator()
    let value = generator.next()
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// `mkdir -p`.
  static func makeDirectories(_ path: String) throws(Errno) {
    var built = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      built += "/" + part
      if mkdir(built, 0o755) != 0, errno != EEXIST { throw Errno(rawValue: errno) }
    }
  }
}
