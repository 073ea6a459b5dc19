import LiftBuddyCore
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
/// Rows are buffered and written when the buffer fills or `flush()` is
/// called (the pipeline does every half second), so a crash loses at most
/// that much. A write error is reported once and the recorder keeps trying.
public final class StreamRecorder {
  private let fd: FileDescriptor
  private let path: String
  private var buffer: [UInt8] = []
  private var closed = false
  public private(set) var lastError: Errno?
  private static let flushThreshold = 32 * 1024

  public init(
    path: String, source: String, startedAtUnix: Double, exercise: Exercise?, loadKg: Double?
  ) throws(Errno) {
    self.path = path
    do {
      fd = try FileDescriptor.open(
        FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
        permissions: [.ownerReadWrite, .groupRead, .otherRead])
    } catch {
      throw error as? Errno ?? .ioError
    }
    buffer.reserveCapacity(Self.flushThreshold * 2)
    var header =
      "# liftbuddy-stream 1\n# source: \(source)\n# started_at: \(Self.rfc3339(startedAtUnix))\n"
    if let exercise { header += "# exercise: \(exercise.rawValue)\n" }
    if let loadKg { header += "# load_kg: \(Self.number(loadKg))\n" }
    buffer.append(contentsOf: header.utf8)
    flush()
  }

  deinit { close() }

  /// One row: the time with three decimals, a space, the line as received.
  public func record(t: Double, line: UnsafeRawBufferPointer) {
    guard !closed else { return }
    Self.appendTime(t, to: &buffer)
    buffer.append(UInt8(ascii: " "))
    buffer.append(contentsOf: line)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= Self.flushThreshold { flush() }
  }

  public func flush() {
    guard !buffer.isEmpty, !closed else { return }
    do {
      _ = try buffer.withUnsafeBytes { try fd.writeAll($0) }
      buffer.removeAll(keepingCapacity: true)
      lastError = nil
    } catch {
      // Keep the rows for the next try, but never more than a bounded amount.
      if buffer.count > 8 * Self.flushThreshold { buffer.removeAll(keepingCapacity: true) }
      lastError = error as? Errno ?? .ioError
    }
  }

  public func close() {
    guard !closed else { return }
    flush()
    _ = fsync(fd.rawValue)
    try? fd.close()
    closed = true
  }

  /// `12.345` without Foundation's formatting (this runs for every line).
  static func appendTime(_ t: Double, to out: inout [UInt8]) {
    let ms = Int64((max(0, t) * 1000).rounded())
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

  /// RFC 3339 UTC with milliseconds: `2026-11-21T04:10:00.250Z`.
  public static func rfc3339(_ unix: Double) -> String {
    let ms = Int64((unix * 1000).rounded())
    var seconds = time_t(ms / 1000)
    var tm = tm()
    gmtime_r(&seconds, &tm)
    func pad(_ n: Int32, _ width: Int) -> String {
      let s = String(n)
      return String(repeating: "0", count: max(0, width - s.count)) + s
    }
    return
      "\(pad(tm.tm_year + 1900, 4))-\(pad(tm.tm_mon + 1, 2))-\(pad(tm.tm_mday, 2))T\(pad(tm.tm_hour, 2)):\(pad(tm.tm_min, 2)):\(pad(tm.tm_sec, 2)).\(pad(Int32(ms % 1000), 3))Z"
  }
}
