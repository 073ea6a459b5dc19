import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// A secret the daemon reads from a file at start (the broker's password,
/// the client key): never from the command line, where every user sees it
/// in `ps`. A file other users may read is refused, so that a secret left
/// `0644` is found at once rather than after it leaked; so is a symlink
/// (systemd's `LoadCredential=` hands the service a regular file of its
/// own in `$CREDENTIALS_DIRECTORY`).
enum SecretFile {
  /// A password is a line; a key is a few KB.
  static let maxBytes = 64 * 1024

  /// The file's bytes, or a one-line reason naming the file.
  static func read(_ path: String) throws(ConfigurationError.Reason) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else {
      let error = errno
      if error == ELOOP { throw .init("\(path) is a symlink; give the file itself") }
      throw .init("cannot read \(path): \(String(cString: strerror(error)))")
    }
    defer { close(fd) }
    try check(fd, path)
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n < 0 {
        if errno == EINTR { continue }
        throw .init("cannot read \(path): \(String(cString: strerror(errno)))")
      }
      if n == 0 { break }
      bytes += chunk[0..<n]
      if bytes.count > maxBytes { throw .init("\(path) is larger than \(maxBytes) bytes") }
    }
    return bytes
  }

  /// Only checks the file (for the client key, which libmosquitto reads itself).
  static func checkOnly(_ path: String) throws(ConfigurationError.Reason) {
    _ = try read(path)
  }

  /// The first line of the file, without its line ending: a password.
  static func readLine(_ path: String) throws(ConfigurationError.Reason) -> String {
    let bytes = try read(path)
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
    guard !line.isEmpty else { throw .init("\(path) is empty; the password is its first line") }
    guard !line.contains(0), let text = String(validating: line, as: UTF8.self) else {
      throw .init("\(path): the password is not UTF-8 text")
    }
    return text
  }

  private static func check(_ fd: Int32, _ path: String) throws(ConfigurationError.Reason) {
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      throw .init("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    guard info.st_mode & S_IFMT == S_IFREG else { throw .init("\(path) is not a regular file") }
    guard info.st_mode & 0o007 == 0 else {
      throw .init(
        "\(path) is readable by every user (mode \(String(info.st_mode & 0o777, radix: 8))); chmod o-rwx it, or pass it with systemd's LoadCredential="
      )
    }
  }
}
