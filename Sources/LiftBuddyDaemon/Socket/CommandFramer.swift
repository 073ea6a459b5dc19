import LiftBuddyCore

/// Splits a client's byte stream into command lines with a hard bound on
/// line length, so a client can never make the server buffer more than
/// `maxLineBytes` for it, whatever it sends.
///
/// The framing is the core's `LineFramer`, the one every clip source goes
/// through too; this adds only what a command needs: a copy of the line to
/// hand down the channel pipeline, and blank lines skipped (a human typing
/// at the socket with `nc` may hit return on its own). Pure and
/// channel-free, so the fuzz target drives exactly the code the server runs.
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
  private var framer: LineFramer

  public init(maxLineBytes: Int) {
    precondition(maxLineBytes > 0, "maxLineBytes must be positive")
    self.maxLineBytes = maxLineBytes
    framer = LineFramer(maxLineLength: maxLineBytes)
  }

  /// True while a line has started but not ended: what the idle timeout for
  /// half-sent commands watches.
  public var hasPartialLine: Bool { framer.hasUnfinishedLine }

  /// Feeds bytes and calls `emit` for every complete (or overlong) line, in
  /// order.
  public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Frame) -> Void) {
    framer.append(bytes) { Self.frame($0, emit) }
  }

  /// The input has ended: a last line without its newline still counts (a
  /// line being discarded as overlong does not).
  public mutating func finish(_ emit: (Frame) -> Void) {
    framer.finish { Self.frame($0, emit) }
  }

  /// Convenience for tests and callers holding an array.
  public mutating func feed(_ bytes: [UInt8], _ emit: (Frame) -> Void) {
    bytes.withUnsafeBytes { feed($0, emit) }
  }

  private static func frame(_ framed: FramedLine, _ emit: (Frame) -> Void) {
    switch framed {
    case .overlong: emit(.overlong)
    case .line(let line):
      if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) { return }
      emit(.line(Array(line)))
    }
  }
}
