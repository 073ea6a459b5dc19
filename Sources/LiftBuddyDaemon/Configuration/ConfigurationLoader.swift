import SystemPackage

/// Builds the daemon's configuration: defaults, then the config file, then
/// the flags, each value checked by the same `DaemonConfiguration.set`.
/// Used at start and again on SIGHUP.
public struct ConfigurationLoader: Sendable {
  /// The config file, if any.
  public var path: String?
  /// Command-line values, by key, in the order given.
  public var flags: [(key: String, value: String)]

  public init(path: String?, flags: [(key: String, value: String)]) {
    self.path = path
    self.flags = flags
  }

  public struct Loaded: Sendable {
    public var configuration: DaemonConfiguration
    /// Keys set by the command line.
    public var fromFlags: Set<String>
    /// Keys set by the config file.
    public var fromFile: Set<String>
  }

  public func load() throws(ConfigurationError) -> Loaded {
    var configuration = DaemonConfiguration()
    var fromFile: Set<String> = []
    if let path {
      let text: String
      do {
        text = try Self.read(path)
      } catch {
        throw ConfigurationError(key: "config", reason: "cannot read \(path): \(error)")
      }
      let file = try ConfigFile(path: path, text: text)
      try file.apply(to: &configuration)
      fromFile = Set(file.entries.map(\.key))
    }
    for (key, value) in flags {
      try configuration.set(key, to: value, origin: ConfigKey.flag(for: key))
    }
    return Loaded(
      configuration: try configuration.validated(), fromFlags: Set(flags.map(\.key)),
      fromFile: fromFile)
  }

  private static func read(_ path: String) throws -> String {
    let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
    return try fd.closeAfter {
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) }
        if n == 0 { break }
        bytes += chunk[0..<n]
        if bytes.count > 1 << 20 { throw Errno.fileTooLarge }
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  }
}
