/// One row of a recorded stream, valid only during the callback that gets it.
public enum StreamRow {
  /// The header, exactly once: before the first data row or rejection, or at
  /// `finish()` for a stream that has none.
  case header(StreamHeader)
  /// A protocol line (unparsed) with its time on the source clock.
  case line(t: Double, bytes: UnsafeRawBufferPointer)
  /// A row that is not a line at all: overlong, not `<t> <line>`, or timed
  /// before the row ahead of it.
  case rejected(LineRejection)
}

/// Reads a recorded stream (contract §2) as it arrives, in chunks of any
/// size: header comments, timed rows `<t> <line>`, and bare protocol lines
/// of a raw serial capture, which it times itself.
///
/// Row rules, and why:
/// - `#` starts a comment. Before the first data row, `# key: value` is
///   header metadata (the key is one word: `[A-Za-z0-9_.-]+`) and
///   `# liftbuddy-stream <n>` the format marker; later comments are skipped.
/// - A row starting with a digit, `+`, `-` or `.` can only mean to be timed,
///   since every protocol line starts with a letter: unless it is a valid
///   non-negative decimal time up to `maxTimeS`, one space, then the line,
///   it is `.rejected(.badRow)` (`0.0x s:52`, `12`, `-1 s:52`).
/// - Any other row is a bare line and is passed on unparsed, even if it is
///   garbage or empty, so that the analyzer's parser counts it exactly once;
///   only blank rows before the first data row are skipped, as layout of
///   the header block.
/// - Output times never decrease: a timed row earlier than the row before it
///   is `.rejected(.timeWentBackwards)`.
///
/// Bare rows are timed at `rate_hz` (header, else `defaultRateHz`), counting
/// rows that start with `s:`, valid or not, since a garbled sonar line still
/// took its slot on the wire: the first at t = 0, the n-th at
/// (n − 1) / rate; any other bare row takes the time of the row before it.
/// In a file that mixes the two, bare rows continue the clock of the last
/// timed row: the first bare `s:` row after a timed row at t₀ is at
/// t₀ + 1 / rate.
public struct StreamReader: Sendable {
  public private(set) var header = StreamHeader()

  private var framer: LineFramer
  private let defaultRateHz: Double
  private var headerEmitted = false
  /// A UTF-8 byte order mark is skipped on the very first row only.
  private var atStreamStart = true
  /// Time of the last row passed on: the bound for the next timed row.
  private var lastT = 0.0
  /// Where the bare-row clock counts from: 0, or the last timed row's time.
  private var bareOrigin = 0.0
  /// Whether a sample sits at `bareOrigin` already (a timed row), so that
  /// the next bare `s:` row is one period after it rather than on it.
  private var bareOriginTaken = false
  /// Bare `s:` rows since `bareOrigin`.
  private var bareSonarRows = 0

  /// The latest row time taken seriously, in seconds: a recording's own
  /// clock has not run for 317 years. Without a bound, a time of 10^16 s
  /// would reach the report's date arithmetic (milliseconds in an `Int64`)
  /// and trap there, as fuzzing found; up to the bound a `Double` still
  /// resolves microseconds.
  public static let maxTimeS = 1e10

  /// The UTF-8 byte order mark some editors put at the start of a text file.
  private static let byteOrderMark: (UInt8, UInt8, UInt8) = (0xEF, 0xBB, 0xBF)
  /// The format marker's comment text, after `#` and spaces.
  private static let formatMarker = Array("liftbuddy-stream".utf8)

  /// `defaultRateHz` times bare rows when the header has no `rate_hz`;
  /// `maxLineLength` bounds a whole row, its time included.
  public init(defaultRateHz: Double = 20, maxLineLength: Int = LineFramer.defaultMaxLineLength) {
    precondition(defaultRateHz > 0 && defaultRateHz.isFinite, "a sample rate must be positive")
    self.defaultRateHz = defaultRateHz
    self.framer = LineFramer(maxLineLength: maxLineLength)
  }

  /// Hands `body` every row that `bytes` completes, in order.
  public mutating func append(_ bytes: UnsafeRawBufferPointer, _ body: (StreamRow) -> Void) {
    var framer = takeFramer()
    framer.append(bytes) { self.take($0, body) }
    self.framer = framer
  }

  /// End of input: the final row if it has no `\n`, then the header if no
  /// row has brought it out yet.
  public mutating func finish(_ body: (StreamRow) -> Void) {
    var framer = takeFramer()
    framer.finish { self.take($0, body) }
    self.framer = framer
    emitHeaderIfNeeded(body)
  }

  /// Moves the framer out so that its callback may mutate `self`, leaving
  /// an empty one behind: a plain copy would share the carry buffer and
  /// make the framer copy it on its next write.
  private mutating func takeFramer() -> LineFramer {
    let framer = self.framer
    self.framer = LineFramer(maxLineLength: framer.maxLineLength)
    return framer
  }

  private mutating func take(_ framed: FramedLine, _ body: (StreamRow) -> Void) {
    guard case .line(var row) = framed else {
      atStreamStart = false
      emitHeaderIfNeeded(body)
      body(.rejected(.overlong))
      return
    }
    if atStreamStart {
      atStreamStart = false
      row = Self.droppingByteOrderMark(row)
    }
    guard let first = row.first else {
      // Blank rows among the header comments are layout; later they are
      // bare rows like any other, which the analyzer counts as `empty`.
      if headerEmitted { bareRow(row, body) }
      return
    }
    switch first {
    case ASCII.hash:
      if !headerEmitted { readHeaderComment(row) }
    case ASCII.zero...ASCII.nine, ASCII.plus, ASCII.minus, ASCII.dot:
      timedRow(row, body)
    default:
      bareRow(row, body)
    }
  }

  private mutating func timedRow(_ row: UnsafeRawBufferPointer, _ body: (StreamRow) -> Void) {
    emitHeaderIfNeeded(body)
    // The time is read where it stands; the byte it stops at must be the
    // separating space.
    let (time, space) = DecimalNumber.scan(row, from: 0, sign: .forbidden)
    guard let t = time, t <= Self.maxTimeS, space < row.count, row[space] == ASCII.space else {
      body(.rejected(.badRow))
      return
    }
    guard t >= lastT else {
      body(.rejected(.timeWentBackwards))
      return
    }
    lastT = t
    bareOrigin = t
    bareOriginTaken = true
    bareSonarRows = 0
    body(.line(t: t, bytes: UnsafeRawBufferPointer(rebasing: row[(space + 1)...])))
  }

  private mutating func bareRow(_ row: UnsafeRawBufferPointer, _ body: (StreamRow) -> Void) {
    emitHeaderIfNeeded(body)
    if row.count >= 2, row[0] == ASCII.lowercaseS, row[1] == ASCII.colon {
      let slot = bareSonarRows + (bareOriginTaken ? 1 : 0)
      bareSonarRows += 1
      // Multiplying from the origin, not adding a period per row, keeps
      // long captures free of accumulated rounding.
      lastT = max(lastT, bareOrigin + Double(slot) / (header.rateHz ?? defaultRateHz))
    }
    body(.line(t: lastT, bytes: row))
  }

  private mutating func emitHeaderIfNeeded(_ body: (StreamRow) -> Void) {
    guard !headerEmitted else { return }
    headerEmitted = true
    body(.header(header))
  }

  /// `# liftbuddy-stream <n>` or `# key: value`; any other comment is
  /// just a comment.
  private mutating func readHeaderComment(_ row: UnsafeRawBufferPointer) {
    let text = Self.trimmingSpaces(UnsafeRawBufferPointer(rebasing: row[1...]))
    if text.starts(with: Self.formatMarker) {
      let rest = UnsafeRawBufferPointer(rebasing: text[Self.formatMarker.count...])
      if rest.isEmpty || rest[0] == ASCII.space || rest[0] == ASCII.tab {
        if let number = LineParser.deviceMillis(Self.trimmingSpaces(rest)), number <= Int.max {
          header.formatVersion = Int(number)
        }
        return
      }
    }
    var colon = 0
    while colon < text.count, Self.isKeyByte(text[colon]) { colon += 1 }
    guard colon > 0, colon < text.count, text[colon] == ASCII.colon else { return }
    let key = String(decoding: UnsafeRawBufferPointer(rebasing: text[0..<colon]), as: UTF8.self)
    let value = Self.trimmingSpaces(UnsafeRawBufferPointer(rebasing: text[(colon + 1)...]))
    header.set(key, String(decoding: value, as: UTF8.self))
  }

  private static func isKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      ASCII.zero...ASCII.nine, UInt8(ascii: "_"), UInt8(ascii: "-"), ASCII.dot:
      true
    default: false
    }
  }

  private static func trimmingSpaces(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == ASCII.space || bytes[start] == ASCII.tab { start += 1 }
    while end > start, bytes[end - 1] == ASCII.space || bytes[end - 1] == ASCII.tab { end -= 1 }
    return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
  }

  private static func droppingByteOrderMark(_ row: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer
  {
    let mark = byteOrderMark
    guard row.count >= 3, row[0] == mark.0, row[1] == mark.1, row[2] == mark.2 else { return row }
    return UnsafeRawBufferPointer(rebasing: row[3...])
  }
}
