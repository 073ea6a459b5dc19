/// Lines a flaky link or a rebooting clip produces: the analysis must count
/// and skip every one of them without losing the lines around them.
enum GarbageLines {
  /// Longer than any sane line, to exercise the reader's line-length bound.
  static let overlongLength: ClosedRange<Int> = 300...1500

  /// One garbage line. `avoidSonarPrefix` keeps raw captures' `s:` count
  /// (their only clock) honest.
  static func make(rng: inout SeededRandom, avoidSonarPrefix: Bool) -> [UInt8] {
    var kinds = ["binary", "truncated_a", "a_nan", "overlong", "unknown"]
    if !avoidSonarPrefix { kinds += ["s_nan", "s_empty", "s_bare"] }
    switch rng.pick(kinds) {
    case "binary":
      return (0..<rng.integer(3...40)).map { i in
        var byte = UInt8(truncatingIfNeeded: rng.next())
        // No line breaks inside a line, and no first byte that could make
        // the row a comment, a timestamp or a real line.
        while byte == 0x0A || byte == 0x0D || (i == 0 && startsSomething(byte)) {
          byte = UInt8(truncatingIfNeeded: rng.next())
        }
        return byte
      }
    case "truncated_a":
      return Array(rng.pick(["a:", "a:1.", "a:-0.4:", "a", "a:3"]).utf8)
    case "a_nan":
      return Array("a:nan:1.0".utf8)
    case "overlong":
      let alphabet = Array("0123456789:.-as".utf8)
      return [UInt8(ascii: "a"), UInt8(ascii: ":")]
        + (0..<rng.integer(overlongLength)).map { _ in rng.pick(alphabet) }
    case "unknown":
      return Array(rng.pick(["x:12", "BOOT", "MPU6050 init ok", "?", "s;140"]).utf8)
    case "s_nan":
      return Array("s:nan".utf8)
    case "s_empty":
      return Array("s:".utf8)
    default:
      return Array("s".utf8)
    }
  }

  private static func startsSomething(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "#") || byte == UInt8(ascii: "s") || byte == UInt8(ascii: "a")
      || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: " ")
  }
}
