import Glibc

/// Why the server could not start; `description` is what the daemon prints
/// before exiting, so each case says what to do about it.
public enum SocketServerError: Error, Equatable, CustomStringConvertible {
  case notASocket(path: String)
  case inUse(path: String)
  case unknownGroup(String)
  case system(call: String, path: String, errno: Int32)
  case alreadyStarted
  case unsafeDirectory(path: String, mode: UInt32, owner: UInt32)
  case foreignSocket(path: String, owner: UInt32)
  case pathTooLong(path: String, bytes: Int, limit: Int)

  public var description: String {
    switch self {
    case .notASocket(let path):
      "\(path) exists and is not a socket; refusing to replace it (remove it or choose another path)"
    case .inUse(let path):
      "\(path) is in use: another daemon is listening on it"
    case .unknownGroup(let name):
      "socket group \"\(name)\" does not exist"
    case .system(let call, let path, let code):
      "\(call)(\(path)): \(String(cString: strerror(code)))"
    case .alreadyStarted:
      "the socket server was already started"
    case .unsafeDirectory(let path, let mode, let owner):
      "\(path) (mode \(String(mode, radix: 8)), owner uid \(owner)) may be written by others and is not sticky, or belongs to another user; refusing to put the socket there (use a directory only the daemon's user can write, e.g. /run/liftbuddy)"
    case .foreignSocket(let path, let owner):
      "\(path) is a socket of uid \(owner), not ours; refusing to remove it (remove it yourself if it is stale, or choose another path)"
    case .pathTooLong(let path, let bytes, let limit):
      "socket path \(path) is \(bytes) bytes; a Unix socket path can have at most \(limit)"
    }
  }
}
