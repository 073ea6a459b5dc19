import LiftBuddyCore
import Logging
import NIOCore
import Synchronization
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// Writes each lift report to `<output dir>/<report id>.json`, atomically:
/// a temporary file made exclusively in the directory held open since start
/// (see `DirectoryHandle`), write, fsync, `renameat`, fsync of the
/// directory. A reader never sees half a report, a power cut leaves either
/// the old state or the whole new file, and nobody who can write in the
/// directory can redirect the write.
///
/// All of it runs on the writer's own `SerialIOQueue`: `publish` only queues,
/// so a slow fsync never delays the socket. A report that cannot be written
/// (a full or read-only disk, a directory squatting on its name) is retried
/// with backoff on its own, never blocking the reports after it; after
/// `maxAttempts` it is set aside: logged in full (so it is not lost), and
/// counted in `counts.setAside` (the `status` object's `reports`).
public final class ReportFileWriter: EventSink {
  /// What became of the reports so far.
  public struct Counts: Sendable, Equatable {
    public var written = 0
    /// Given up on after every retry; each is in the log in full.
    public var setAside = 0
    /// Waiting for their first try or a retry.
    public var pending = 0

    public init(written: Int = 0, setAside: Int = 0, pending: Int = 0) {
      self.written = written
      self.setAside = setAside
      self.pending = pending
    }
  }

  public let directory: DirectoryHandle
  private let logger: Logger
  private let backoff: Backoff
  private let maxAttempts: Int
  private let queue = SerialIOQueue()
  private let retries: NIOLoopBoundBox<Retries>
  private let state = Mutex(Counts())
  /// Reports held for retry at once; beyond this a failing one is set
  /// aside at its first failure, so a disk that refuses everything cannot
  /// make memory grow.
  static let maxWaiting = 1000

  /// Reports waiting for a retry, by sequence number; only touched on the
  /// queue's thread.
  private final class Retries {
    var waiting: [Int: (report: LiftReport, retry: Scheduled<Void>)] = [:]
    var sequence = 0
  }

  /// Opens (creating it if needed) the output directory and removes the
  /// temporary files a killed earlier run left there. Throws when the
  /// directory cannot be opened, so that a wrong `output_dir` (a regular
  /// file, no permission) stops the daemon at start.
  public init(
    directory path: String, logger: Logger, backoff: Backoff = Backoff(initial: 1, maximum: 16),
    maxAttempts: Int = 6
  ) throws(Errno) {
    directory = try DirectoryHandle(path: path, create: true)
    self.logger = logger
    self.backoff = backoff
    self.maxAttempts = max(1, maxAttempts)
    retries = NIOLoopBoundBox.makeBoxSendingValue(Retries(), eventLoop: queue.loop)
    let removed = directory.removeStale(where: Self.isTemporaryName)
    if !removed.isEmpty {
      logger.notice(
        "removed \(removed.count) temporary report files left by an earlier run",
        metadata: ["dir": "\(path)", "files": "\(removed.joined(separator: " "))"])
    }
  }

  public func publish(_ event: DaemonEvent) {
    guard case .analyzer(.lift(let report)) = event else { return }
    state.withLock { $0.pending += 1 }
    queue.execute { [self] in attempt(report, number: 1, backoff: backoff) }
  }

  public var counts: Counts { state.withLock { $0 } }

  /// Returns once every report published so far has had its first try.
  public func drain() async { await queue.drain() }

  /// Last try before exit for the reports waiting on a retry; what still
  /// fails is set aside (logged in full). Stops the queue.
  public func close() async {
    let last = queue.loop.submit { [self] in
      let waiting = retries.value.waiting.values.map(\.report)
      for entry in retries.value.waiting.values { entry.retry.cancel() }
      retries.value.waiting.removeAll()
      for report in waiting { attempt(report, number: maxAttempts, backoff: backoff) }
    }
    try? await last.get()
    await queue.shutdown()
  }

  /// One try at writing `report`; on failure, a retry is scheduled or the
  /// report set aside. Runs on the queue.
  private func attempt(_ report: LiftReport, number: Int, backoff: Backoff) {
    do {
      try write(report)
      state.withLock {
        $0.pending -= 1
        $0.written += 1
      }
      logger.info(
        "report written",
        metadata: [
          "path": "\(directory.path)/\(Self.fileName(for: report.id))",
          "reps": "\(report.summary.repCount)",
        ])
    } catch {
      let box = retries.value
      guard number < maxAttempts, box.waiting.count < Self.maxWaiting else {
        setAside(report, error: error, attempts: number)
        return
      }
      var next = backoff
      let delay = next.take()
      logger.error(
        "cannot write report \(report.id) to \(directory.path): \(error); retrying in \(DaemonStatus.format(delay)) s (try \(number) of \(maxAttempts))"
      )
      box.sequence += 1
      let key = box.sequence
      let retry = queue.schedule(in: .nanoseconds(Int64(delay * 1e9))) { [self, next] in
        retries.value.waiting[key] = nil
        attempt(report, number: number + 1, backoff: next)
      }
      box.waiting[key] = (report, retry)
    }
  }

  private func setAside(_ report: LiftReport, error: any Error, attempts: Int) {
    state.withLock {
      $0.pending -= 1
      $0.setAside += 1
    }
    logger.error(
      "report set aside after \(attempts) failed tries (\(error)); here it is in full",
      metadata: ["id": "\(report.id)", "report": "\(report.jsonLine())"])
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

  /// The prefix of a report's temporary file; a random suffix follows.
  static func temporaryPrefix(for fileName: String) -> String { "." + fileName + ".tmp-" }

  /// Names this writer (or an earlier version, which used its pid) gives
  /// temporary files: `.<id>.json.tmp-<hex or digits>`.
  static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix("."), let marker = name.range(of: ".json.tmp-", options: .backwards)
    else { return false }
    let suffix = name[marker.upperBound...]
    return !suffix.isEmpty && suffix.count <= 16 && suffix.allSatisfy(\.isHexDigit)
  }

  /// The bytes of a report's file: its JSON line (the one encoding shared
  /// with `liftbuddy analyze`), then a newline.
  public static func fileContents(_ report: LiftReport) -> [UInt8] {
    Array((report.jsonLine() + "\n").utf8)
  }

  private func write(_ report: LiftReport) throws(Errno) {
    let name = Self.fileName(for: report.id)
    let (temp, fd) = try directory.createExclusive(
      prefix: Self.temporaryPrefix(for: name),
      permissions: [.ownerReadWrite, .groupRead, .otherRead])
    do {
      try fd.closeAfter {
        _ = try Self.fileContents(report).withUnsafeBytes { try fd.writeAll($0) }
        guard fsync(fd.rawValue) == 0 else { throw Errno(rawValue: errno) }
      }
      try directory.rename(temp, to: name)
    } catch {
      directory.remove(temp)
      throw error as? Errno ?? .ioError
    }
    try directory.sync()
  }
}
