import Glibc
import NIOCore

/// A minimal blocking client for the daemon's socket: connect, send a line,
/// read lines. For command-line tools, which have nothing else to do while
/// they wait; the server side never blocks like this.
public final class SocketLineClient {
  /// Why a connection failed, by the errno of connect(2), so a tool can say
  /// what to do about it.
  public struct ConnectError: Error, CustomStringConvertible {
    public var path: String
    public var code: Int32

    public var description: String {
      switch code {
      case ENOENT: "no socket at \(path): is liftbuddyd running? (--socket PATH to look elsewhere)"
      case ECONNREFUSED: "nothing is listening on \(path) (a socket left by a daemon that crashed?)"
      case EACCES: "permission denied on \(path): the socket is for its group's members"
      default: "cannot connect to \(path): \(String(cString: strerror(code)))"
      }
    }
  }

  public struct IOError: Error, CustomStringConvertible {
    public var call: String
    public var code: Int32
    public var description: String { "\(call): \(String(cString: strerror(code)))" }
  }

  /// A line longer than this is not one the daemon sends (a lift report is
  /// a few kilobytes): reading stops with an error instead of buffering
  /// whatever a wrong or hostile peer sends.
  public static let maxLineBytes = 1 << 20

  public struct LineTooLong: Error, CustomStringConvertible {
    public var description: String {
      "the server sent a line longer than \(SocketLineClient.maxLineBytes) bytes; giving up"
    }
  }

  private let fd: Int32
  private var buffer: [UInt8] = []
  private var chunk = [UInt8](repeating: 0, count: 65536)

  public init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw IOError(call: "socket", code: errno) }
    guard let address = try? SocketAddress(unixDomainSocketPath: path) else {
      close(fd)
      throw ConnectError(path: path, code: ENAMETOOLONG)
    }
    let result = address.withSockAddr { connect(fd, $0, socklen_t($1)) }
    guard result == 0 else {
      let code = errno
      close(fd)
      throw ConnectError(path: path, code: code)
    }
  }

  deinit { close(fd) }

  /// Sends `line` and a newline.
  public func send(line: String) throws {
    let bytes = Array(line.utf8) + [UInt8(ascii: "\n")]
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { throw IOError(call: "send", code: errno) }
      offset += n
    }
  }

  /// The next line without its newline; nil when the server closed.
  public func readLine() throws -> [UInt8]? {
    var searched = 0
    while true {
      if let newline = buffer[searched...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
      }
      searched = buffer.count
      guard buffer.count <= Self.maxLineBytes else { throw LineTooLong() }
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n < 0, errno == EINTR { continue }
      if n == 0 { return nil }
      guard n > 0 else { throw IOError(call: "recv", code: errno) }
      buffer.append(contentsOf: chunk[..<n])
    }
  }
}
