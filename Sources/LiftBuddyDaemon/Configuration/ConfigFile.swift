/// The config file's syntax: one `key = value` per line; blank lines and
/// lines starting with `#` are ignored; a value may be wrapped in double
/// quotes to keep leading or trailing spaces. Nothing else: no sections, no
/// includes, no escapes.
public struct ConfigFile: Sendable, Equatable {
  public struct Entry: Sendable, Equatable {
    public var key: String
    public var value: String
    public var line: Int
  }

  public var path: String
  public var entries: [Entry]

  public init(path: String, text: String) throws(ConfigurationError) {
    self.path = path
    var entries: [Entry] = []
    var lineNumber = 0
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = raw.trimmingASCIISpaces()
      if line.isEmpty || line.hasPrefix("#") { continue }
      guard let eq = line.firstIndex(of: "=") else {
        throw ConfigurationError(
          key: String(line.prefix(40)), reason: "expected 'key = value'",
          origin: "\(path):\(lineNumber)")
      }
      let key = line[..<eq].trimmingASCIISpaces()
      var value = line[line.index(after: eq)...].trimmingASCIISpaces()
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = value.dropFirst().dropLast()
      }
      guard !key.isEmpty else {
        throw ConfigurationError(
          key: "", reason: "missing key before '='", origin: "\(path):\(lineNumber)")
      }
      entries.append(Entry(key: String(key), value: String(value), line: lineNumber))
    }
    self.entries = entries
  }

  /// Applies every entry, in file order, to `configuration`.
  public func apply(to configuration: inout DaemonConfiguration) throws(ConfigurationError) {
    for entry in entries {
      try configuration.set(entry.key, to: entry.value, origin: "\(path):\(entry.line)")
    }
  }
}

extension Substring {
  fileprivate func trimmingASCIISpaces() -> Substring {
    var s = self
    while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
    return s
  }
}
