import LiftBuddyCore
import Logging
import NIOCore
import Synchronization
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// Tees received lines to a file in the recorded-stream format (contract
/// §2), so that any live session can be replayed or analysed later:
///
/// ```
/// # liftbuddy-stream 1
/// # source: serial:/dev/ttyUSB0
/// # started_at: 2026-11-21T04:10:00.250Z
/// # exercise: squat
/// 0.000 s:52
/// ```
///
/// The file is opened at start, refusing a symlink (`O_NOFOLLOW`) and a
/// missing directory, so that a wrong `record` path stops the daemon there
/// rather than later. Rows are buffered and handed, when the buffer fills
/// or `flush()` is called (the pipeline's tick, every half second), to the
/// recorder's own `SerialIOQueue`, which writes them: a slow or full disk
/// never holds up the pipeline. A write error is logged once, the rows kept
/// for a bounded amount and retried; beyond that they are dropped and
/// counted.
public final class StreamRecorder: Sendable {
  public let path: String
  private let fd: SystemPackage.FileDescriptor
  private let logger: Logger
  private let queue = SerialIOQueue()
  private let buffer = Mutex<[UInt8]>([])
  /// Bytes that failed to write, retried before newer ones; queue-confined.
  private let unwritten: NIOLoopBoundBox<Unwritten>
  private let state = Mutex((closed: false, droppedBytes: 0, failing: false))
  static let flushThreshold = 32 * 1024
  /// Bytes kept for retry while writing fails.
  static let retryLimit = 8 * flushThreshold

  private final class Unwritten {
    var bytes: [UInt8] = []
  }

  public init(
    path: String, source: String, startedAtUnix: Double, exercise: Exercise?, loadKg: Double?,
    logger: Logger = Logger(label: "liftbuddy.recorder")
  ) throws(Errno) {
    self.path = path
    self.logger = logger
    // O_NONBLOCK only so that a FIFO nobody reads fails here instead of
    // hanging the start; a regular file or a character device (/dev/null)
    // is taken, then written blocking, on the recorder's own thread.
    let raw = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o644)
    guard raw >= 0 else { throw Errno(rawValue: errno) }
    fd = SystemPackage.FileDescriptor(rawValue: raw)
    var info = stat()
    let kind = fstat(raw, &info) == 0 ? info.st_mode & S_IFMT : 0
    guard kind == S_IFREG || kind == S_IFCHR else {
      Glibc.close(raw)
      throw Errno.invalidArgument
    }
    _ = fcntl(raw, F_SETFL, fcntl(raw, F_GETFL) & ~O_NONBLOCK)
    unwritten = NIOLoopBoundBox.makeBoxSendingValue(Unwritten(), eventLoop: queue.loop)
    var header =
      "# liftbuddy-stream 1\n# source: \(source)\n# started_at: \(RFC3339Formatter.string(unixSeconds: startedAtUnix))\n"
    if let exercise { header += "# exercise: \(exercise.rawValue)\n" }
    if let loadKg { header += "# load_kg: \(Self.number(loadKg))\n" }
    buffer.withLock { $0.append(contentsOf: header.utf8) }
    flush()
  }

  /// One row: the time with three decimals, a space, the line as received.
  public func record(t: Double, line: UnsafeRawBufferPointer) {
    let full = buffer.withLock { buffer in
      Self.appendTime(t, to: &buffer)
      buffer.append(UInt8(ascii: " "))
      buffer.append(contentsOf: line)
      buffer.append(UInt8(ascii: "\n"))
      return buffer.count >= Self.flushThreshold
    }
    if full { flush() }
  }

  /// Hands the buffered rows to the writing queue.
  public func flush() {
    let bytes = buffer.withLock { buffer -> [UInt8] in
      defer { buffer.removeAll(keepingCapacity: true) }
      return buffer
    }
    guard !bytes.isEmpty, !state.withLock({ $0.closed }) else { return }
    queue.execute { [self] in write(bytes) }
  }

  /// Bytes dropped because writing failed for too long.
  public var droppedBytes: Int { state.withLock { $0.droppedBytes } }

  /// Writes what is buffered, syncs and closes the file; stops the queue.
  public func close() async {
    flush()
    let wasClosed = state.withLock { state in
      defer { state.closed = true }
      return state.closed
    }
    guard !wasClosed else { return }
    let done = queue.loop.submit { [self] in
      write([])
      _ = fsync(fd.rawValue)
      try? fd.close()
    }
    try? await done.get()
    await queue.shutdown()
  }

  /// Runs on the queue.
  private func write(_ bytes: [UInt8]) {
    let box = unwritten.value
    box.bytes += bytes
    guard !box.bytes.isEmpty else { return }
    do {
      _ = try box.bytes.withUnsafeBytes { try fd.writeAll($0) }
      box.bytes.removeAll(keepingCapacity: true)
      if setFailing(false) {
        logger.notice("the recording \(path) is being written again")
      }
    } catch {
      if box.bytes.count > Self.retryLimit {
        let dropped = box.bytes.count
        box.bytes.removeAll(keepingCapacity: true)
        state.withLock { $0.droppedBytes += dropped }
      }
      if !setFailing(true) {
        logger.error(
          "cannot write the recording \(path): \(error); rows are kept briefly and retried")
      }
    }
  }

  /// Sets whether writing fails; returns what it was.
  private func setFailing(_ failing: Bool) -> Bool {
    state.withLock { state in
      defer { state.failing = failing }
      return state.failing
    }
  }

  /// `12.345` without Foundation's formatting (this runs for every line).
  static func appendTime(_ t: Double, to out: inout [UInt8]) {
    let ms = Int64((min(max(0, t), 1e12) * 1000).rounded())
    out.append(contentsOf: String(ms / 1000).utf8)
    out.append(UInt8(ascii: "."))
    let frac = Int(ms % 1000)
    out.append(UInt8(ascii: "0") + UInt8(frac / 100))
    out.append(UInt8(ascii: "0") + UInt8(frac / 10 % 10))
    out.append(UInt8(ascii: "0") + UInt8(frac % 10))
  }

  static func number(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
  }

}
