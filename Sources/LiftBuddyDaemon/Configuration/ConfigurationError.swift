/// A configuration value that cannot be used, named by its key (as in the
/// config file; the flag is the same name with dashes) and where it came from.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// Why a value was refused, without the key (the caller adds it).
  public struct Reason: Error, Sendable, Equatable {
    public var text: String
    public init(_ text: String) { self.text = text }
  }

  public var key: String
  public var reason: String
  /// `FILE:LINE` for the config file, `--flag` for the command line.
  public var origin: String?

  public init(key: String, reason: String, origin: String? = nil) {
    self.key = key
    self.reason = reason
    self.origin = origin
  }

  public var description: String {
    if let origin { return "\(origin): invalid value for '\(key)': \(reason)" }
    return "invalid value for '\(key)': \(reason)"
  }
}
