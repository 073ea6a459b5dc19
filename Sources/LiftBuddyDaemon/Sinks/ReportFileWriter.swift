import LiftBuddyCore
import Logging
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// Writes each lift report to `<output dir>/<report id>.json`, atomically:
/// a temporary file in the same directory, write, fsync, rename, fsync of
/// the directory. A reader never sees half a report, and a power cut leaves
/// either the old state or the whole new file.
///
/// A full or read-only disk never takes the daemon down: the report stays
/// in memory and is retried with backoff (1 s up to 60 s) until it is
/// written; at shutdown a report that still cannot be written is logged in
/// full, so it is not lost.
public actor ReportFileWriter: EventSink {
  public nonisolated let directory: String
  private let logger: Logger
  private var pending: [LiftReport] = []
  private var backoff: Backoff
  private var retryTask: Task<Void, Never>?
  /// Reports kept while the disk refuses them; beyond this the oldest go to
  /// the log instead.
  private let maxPending = 1000
  public private(set) var written = 0

  public init(
    directory: String, logger: Logger, backoff: Backoff = Backoff(initial: 1, maximum: 60)
  ) {
    self.directory = directory
    self.logger = logger
    self.backoff = backoff
  }

  public func publish(_ event: DaemonEvent) async {
    guard case .analyzer(.lift(let report)) = event else { return }
    pending.append(report)
    if pending.count > maxPending {
      let dropped = pending.removeFirst()
      logger.error(
        "report dropped from the retry queue, here it is in full",
        metadata: ["id": "\(dropped.id)", "report": "\(dropped.jsonLine())"])
    }
    if retryTask == nil { flush() }
  }

  /// Reports not yet on disk.
  public var pendingCount: Int { pending.count }

  /// Last try before exit; what still fails goes to the log in full.
  public func close() {
    retryTask?.cancel()
    retryTask = nil
    flush(scheduleRetry: false)
    for report in pending {
      logger.error(
        "report could not be written before exit, here it is in full",
        metadata: ["id": "\(report.id)", "report": "\(report.jsonLine())"])
    }
    pending.removeAll()
  }

  private func flush(scheduleRetry: Bool = true) {
    while let report = pending.first {
      do {
        let path = try write(report)
        pending.removeFirst()
        written += 1
        backoff.reset()
        logger.info(
          "report written", metadata: ["path": "\(path)", "reps": "\(report.summary.repCount)"])
      } catch {
        let delay = backoff.take()
        logger.error(
          "cannot write report \(report.id) to \(directory): \(error); \(pending.count) waiting, retrying in \(Pipeline.format(delay)) s"
        )
        if scheduleRetry { retry(after: delay) }
        return
      }
    }
  }

  private func retry(after seconds: Double) {
    retryTask = Task { [weak self] in
      try? await Task.sleep(for: .seconds(seconds))
      guard !Task.isCancelled else { return }
      await self?.retryNow()
    }
  }

  private func retryNow() {
    retryTask = nil
    flush()
  }

  /// The file name for a report id: the id itself, with anything that could
  /// leave the directory replaced.
  public static func fileName(for id: String) -> String {
    var name = String(
      id.map { c -> Character in
        c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".") ? c : "_"
      })
    if name.hasPrefix(".") { name = "_" + name.dropFirst() }
    return name + ".json"
  }

  /// The bytes of a report's file: its JSON line (the one encoding shared
  /// with `liftbuddy analyze`), then a newline.
  public static func fileContents(_ report: LiftReport) -> [UInt8] {
    Array((report.jsonLine() + "\n").utf8)
  }

  private func write(_ report: LiftReport) throws -> String {
    try Self.makeDirectory(directory)
    let name = Self.fileName(for: report.id)
    let final = FilePath(directory).appending(name)
    let temp = FilePath(directory).appending(".\(name).tmp-\(getpid())")
    let bytes = Self.fileContents(report)
    let fd = try FileDescriptor.open(
      temp, .writeOnly, options: [.create, .truncate, .closeOnExec],
      permissions: [.ownerReadWrite, .groupRead, .otherRead])
    do {
      try fd.closeAfter {
        _ = try bytes.withUnsafeBytes { try fd.writeAll($0) }
        guard fsync(fd.rawValue) == 0 else { throw Errno(rawValue: errno) }
      }
      guard rename(temp.string, final.string) == 0 else { throw Errno(rawValue: errno) }
    } catch {
      _ = unlink(temp.string)
      throw error
    }
    let dir = try FileDescriptor.open(
      FilePath(directory), .readOnly, options: [.directory, .closeOnExec])
    defer { try? dir.close() }
    guard fsync(dir.rawValue) == 0 else { throw Errno(rawValue: errno) }
    return final.string
  }

  /// `mkdir -p`.
  static func makeDirectory(_ path: String) throws(Errno) {
    var built = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
      built += "/" + part
      if mkdir(built, 0o755) != 0, errno != EEXIST { throw Errno(rawValue: errno) }
    }
  }
}
