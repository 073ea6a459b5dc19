/// `ADDRESS:PORT` for `--http`: `127.0.0.1:8080`, `0.0.0.0:80`, `[::]:8080`.
/// Port 0 asks the kernel for a free one (tests); the log says which.
public struct WebAddress: Sendable, Equatable, CustomStringConvertible {
  public var host: String
  public var port: Int

  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// nil for anything but a numeric address and a port 0–65535: a host name
  /// would make the daemon's start depend on DNS.
  public init?(parsing text: String) {
    guard let colon = text.lastIndex(of: ":") else { return nil }
    var host = String(text[..<colon])
    guard let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
      return nil
    }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    let isIPv4 =
      host.split(separator: ".", omittingEmptySubsequences: false).count == 4
      && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy {
        UInt8($0) != nil
      }
    let isIPv6 = host.contains(":") && host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    guard isIPv4 || isIPv6 else { return nil }
    self.host = host
    self.port = port
  }

  public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
