/// `HOST[:PORT]` for `--mqtt`: `broker.local`, `192.168.1.10:1883`,
/// `[fd00::1]:8883`. Unlike the web view's address, a name is welcome here:
/// the gym's broker is usually known by one, and libmosquitto resolves it at
/// every (re)connection on its own thread, so a name that does not resolve
/// is a retry, never a failed start.
public struct MQTTBroker: Sendable, Equatable, CustomStringConvertible {
  /// MQTT's registered port without TLS.
  public static let defaultPort = 1883

  public var host: String
  public var port: Int

  public init(host: String, port: Int = Self.defaultPort) {
    self.host = host
    self.port = port
  }

  /// nil for an empty or over-long host, a character no host name or
  /// address has, an IPv6 address outside brackets, or a port outside 1–65535.
  public init?(parsing text: String) {
    var host: Substring
    var portText: Substring?
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      if !rest.isEmpty {
        guard rest.hasPrefix(":") else { return nil }
        portText = rest.dropFirst()
      }
      guard host.contains(":"), host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
      else { return nil }
    } else {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count <= 2 else { return nil }
      host = parts[0]
      portText = parts.count == 2 ? parts[1] : nil
      guard
        host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
      else { return nil }
    }
    guard !host.isEmpty, host.utf8.count <= 253 else { return nil }
    var port = Self.defaultPort
    if let portText {
      guard let n = Int(portText), (1...65535).contains(n) else { return nil }
      port = n
    }
    self.init(host: String(host), port: port)
  }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
