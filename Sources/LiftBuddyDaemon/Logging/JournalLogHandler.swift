import Logging

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// A `LogHandler` that writes one line per message to stderr, prefixed with
/// the syslog priority as sd-daemon(3) documents (`<3>` error … `<7>` debug),
/// so that journald files each line at the right priority while a terminal
/// still shows readable text. The level lives in a shared `LogLevelBox`, so
/// that SIGHUP can change it for every logger at once.
public struct JournalLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var metadataProvider: Logger.MetadataProvider?
  private let label: String
  private let levelBox: LogLevelBox

  public init(label: String, level: LogLevelBox) {
    self.label = label
    self.levelBox = level
  }

  public var logLevel: Logger.Level {
    get { levelBox.level }
    set { levelBox.level = newValue }
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  /// sd-daemon(3): `<3>` SD_ERR … `<7>` SD_DEBUG.
  public static func priority(_ level: Logger.Level) -> Int {
    switch level {
    case .critical: 2
    case .error: 3
    case .warning: 4
    case .notice: 5
    case .info: 6
    case .debug, .trace: 7
    }
  }

  public func log(event: LogEvent) {
    var all = metadata
    if let provided = metadataProvider?.get() { all.merge(provided) { $1 } }
    if let extra = event.metadata { all.merge(extra) { $1 } }
    var line = "<\(Self.priority(event.level))>\(label): \(event.message)"
    if !all.isEmpty {
      line +=
        " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
    // Embedded newlines would start journal entries without a priority.
    line = line.replacingOccurrences(of: "\n", with: "\\n") + "\n"
    Self.writeToStderr(line)
  }

  /// One write(2) per line, so that concurrent loggers never interleave
  /// within a line.
  static func writeToStderr(_ line: String) {
    var line = line
    line.withUTF8 { buf in
      var offset = 0
      while offset < buf.count {
        let n = write(STDERR_FILENO, buf.baseAddress! + offset, buf.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return
        }
        offset += n
      }
    }
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    guard contains(target) else { return self }
    return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
