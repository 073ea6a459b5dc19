/// One framed line, valid only for the duration of the callback that gets it.
public enum FramedLine {
  /// The line's bytes, without its `\n` and without a trailing `\r`.
  case line(UnsafeRawBufferPointer)
  /// A line longer than the framer's bound: reported once, its bytes dropped.
  case overlong
}

/// Cuts a byte stream into lines, wherever the transport split it.
///
/// BLE notifications and serial reads split lines anywhere, so a line may
/// span calls. Lines that lie entirely inside one `append` are handed out in
/// place, without a copy; only the tail of a chunk that ends mid-line is
/// copied into a carry buffer, which never grows past the line bound. A
/// garbage stream without newlines therefore costs bounded memory, and the
/// line after an overlong one is read normally.
public struct LineFramer: Sendable {
  /// The longest legal line is about 40 bytes (`a:-359.99:-359.99:` and a
  /// 20-digit device clock) and a recorded row adds a time of a dozen; 256
  /// leaves room for firmware that adds fields while keeping a flood of
  /// garbage from buffering more than a few hundred bytes.
  public static let defaultMaxLineLength = 256

  /// The bound on a line's length, `\r` and `\n` not counted.
  public let maxLineLength: Int
  /// The start of a line that the previous chunk ended in the middle of.
  private var carry: [UInt8] = []
  /// Set once an unfinished line has been reported overlong: its remaining
  /// bytes, up to the next `\n`, are dropped.
  private var discarding = false

  /// True while a line has started but not ended (or an overlong one is
  /// being skipped): what the socket's timeout for half-sent commands
  /// watches.
  public var hasUnfinishedLine: Bool { !carry.isEmpty || discarding }

  public init(maxLineLength: Int = LineFramer.defaultMaxLineLength) {
    precondition(maxLineLength >= 0, "a line bound cannot be negative")
    self.maxLineLength = maxLineLength
  }

  /// Hands `body` every line that `bytes` completes, in order.
  public mutating func append(_ bytes: UnsafeRawBufferPointer, _ body: (FramedLine) -> Void) {
    let count = bytes.count
    var start = 0
    while start < count {
      guard let newline = Self.firstNewline(in: bytes, from: start) else {
        keepUnfinished(UnsafeRawBufferPointer(rebasing: bytes[start..<count]), body)
        return
      }
      if discarding {
        discarding = false
      } else if carry.isEmpty {
        deliver(UnsafeRawBufferPointer(rebasing: bytes[start..<newline]), body)
      } else {
        // The carry never grows past one line and its `\r`.
        if carry.count + (newline - start) > maxLineLength + 1 {
          body(.overlong)
        } else {
          carry.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<newline]))
          carry.withUnsafeBytes { deliver($0, body) }
        }
        carry.removeAll(keepingCapacity: true)
      }
      start = newline + 1
    }
  }

  /// End of input: delivers a final line that has no `\n`, and leaves the
  /// framer ready for a new stream.
  public mutating func finish(_ body: (FramedLine) -> Void) {
    if !discarding, !carry.isEmpty {
      carry.withUnsafeBytes { deliver($0, body) }
    }
    carry.removeAll(keepingCapacity: true)
    discarding = false
  }

  /// Passes on a complete line (`\n` already cut off).
  private func deliver(_ line: UnsafeRawBufferPointer, _ body: (FramedLine) -> Void) {
    var length = line.count
    if length > 0, line[length - 1] == ASCII.carriageReturn { length -= 1 }
    if length > maxLineLength {
      body(.overlong)
    } else {
      body(.line(UnsafeRawBufferPointer(rebasing: line[0..<length])))
    }
  }

  /// Keeps the start of an unfinished line for the next chunk, or reports it
  /// overlong as soon as it cannot be legal whatever follows.
  private mutating func keepUnfinished(_ tail: UnsafeRawBufferPointer, _ body: (FramedLine) -> Void)
  {
    guard !discarding else { return }
    let pending = carry.count + tail.count
    // One byte more than the bound may still be the `\r` of a CRLF.
    let mayStillFit =
      pending <= maxLineLength
      || (pending == maxLineLength + 1 && tail.last == ASCII.carriageReturn)
    guard mayStillFit else {
      body(.overlong)
      discarding = true
      carry.removeAll(keepingCapacity: true)
      return
    }
    if carry.capacity == 0 { carry.reserveCapacity(maxLineLength + 1) }
    carry.append(contentsOf: tail)
  }

  /// The index of the first `\n` at or after `start`.
  ///
  /// Reads eight bytes at a time (the classic SWAR zero-byte test) because
  /// this loop sees every byte of every stream; lines are short, so the
  /// win is modest but free.
  @inline(__always)
  private static func firstNewline(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
    let count = bytes.count
    var index = start
    let wordSize = MemoryLayout<UInt64>.size
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highBits: UInt64 = 0x8080_8080_8080_8080
    let newlines = ones &* UInt64(ASCII.newline)
    while index + wordSize <= count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
      let x = word ^ newlines
      let found = (x &- ones) & ~x & highBits
      if found != 0 {
        return index + found.trailingZeroBitCount / 8
      }
      index += wordSize
    }
    while index < count {
      if bytes[index] == ASCII.newline { return index }
      index += 1
    }
    return nil
  }
}
