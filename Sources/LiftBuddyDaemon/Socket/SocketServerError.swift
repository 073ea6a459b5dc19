import Glibc

/// Why the server could not start; `description` is what the daemon prints
/// before exiting, so each case says what to do about it.
public enum SocketServerError: Error, Equatable, CustomStringConvertible {
  case notASocket(path: String)
  case inUse(path: String)
  case unknownGroup(String)
  case system(call: String, path: String, errno: Int32)
  case alreadyStarted

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
    }
  }
}
