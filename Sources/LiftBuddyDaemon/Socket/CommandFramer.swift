/// Splits a client's byte stream into command lines with a hard bound on
/// line length, so a client can never make the server buffer more than
/// `maxLineBytes` for it, whatever it sends.
///
/// Pure and channel-free, so the fuzz target drives exactly the code the
/// server runs.
public struct CommandFramer: Sendable {
  public enum Frame: Equatable, Sendable {
    /// One line, without its terminator (LF, or CR LF).
    case line([UInt8])
    /// A line grew past the bound. Reported once, as soon as it is seen, so
    /// the client hears about it without having to finish the line; the rest
    /// of it, up to its newline, is dropped.
    case overlong
  }

  public let maxLineBytes: Int
  private var partial: [UInt8] = []
  private var discarding = false

  public init(maxLineBytes: Int) {
    precondition(maxLineBytes > 0, "maxLineBytes must be positive")
    self.maxLineBytes = maxLineBytes
  }

  /// True while a line has started but not ended: what the idle timeout for
  /// half-sent commands watches.
  public var hasPartialLine: Bool { !partial.isEmpty || discarding }

  /// Feeds bytes and calls `emit` for every complete (or overlong) line, in
  /// order. Blank lines are skipped: a human typing at the socket with `nc`
  /// may hit return on its own.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Frame) -> Void) {
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
      let end = newline ?? bytes.endIndex
      let segment = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
      if discarding {
        if newline != nil { discarding = false }
      } else if newline != nil {
        finishLine(segment, emit)
      } else if partial.count + segment.count > maxLineBytes + 1 {
        // One byte of slack while the line is unterminated: a final CR may
        // still turn out to be half of a CR LF terminator.
        partial.removeAll(keepingCapacity: false)
        discarding = true
        emit(.overlong)
      } else {
        partial.append(contentsOf: segment)
      }
      start = newline.map { $0 + 1 } ?? bytes.endIndex
    }
  }

  /// The input has ended: a last line without its newline still counts (a
  /// line being discarded as overlong does not).
  public mutating func finish(_ emit: (Frame) -> Void) {
    let wasDiscarding = discarding
    discarding = false
    guard !wasDiscarding, !partial.isEmpty else {
      partial.removeAll(keepingCapacity: false)
      return
    }
    let bytes = partial
    partial.removeAll(keepingCapacity: false)
    bytes.withUnsafeBytes { finishLine($0, emit) }
  }

  /// Convenience for tests and callers holding an array.
  public mutating func feed(_ bytes: [UInt8], _ emit: (Frame) -> Void) {
    bytes.withUnsafeBytes { feed($0, emit) }
  }

  private mutating func finishLine(_ segment: UnsafeRawBufferPointer, _ emit: (Frame) -> Void) {
    let last = segment.last ?? partial.last
    let length = partial.count + segment.count - (last == UInt8(ascii: "\r") ? 1 : 0)
    guard length <= maxLineBytes else {
      partial.removeAll(keepingCapacity: false)
      emit(.overlong)
      return
    }
    var line = partial
    line.append(contentsOf: segment)
    partial.removeAll(keepingCapacity: true)
    if line.last == UInt8(ascii: "\r") { line.removeLast() }
    if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
    emit(.line(line))
  }
}
