/// Writes a recorded stream (contract §2): the header comments, then one
/// row per line, `<t> <line>` with t to the millisecond, or the bare line
/// for a raw capture.
struct StreamWriter {
  /// Fixed so that a seed gives the same bytes on every machine and day.
  static let startedAt = "2026-01-05T10:00:00Z"

  struct Header {
    var exercise: String?
    var loadKg: Double?
    var transport: Transport
    var rateHz: Double
    var seed: UInt64
  }

  static func write(header: Header, lines: [EmittedLine], receiveTimes: [Double]?) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(lines.count * 14 + 200)
    func comment(_ text: String) { out.append(contentsOf: Array("# \(text)\n".utf8)) }
    comment("liftbuddy-stream 1")
    if let exercise = header.exercise { comment("exercise: \(exercise)") }
    if let load = header.loadKg { comment("load_kg: \(number(load))") }
    comment("source: sim:\(header.transport.rawValue)")
    comment("rate_hz: \(number(header.rateHz))")
    comment("started_at: \(startedAt)")
    comment("seed: \(header.seed)")
    for (i, line) in lines.enumerated() {
      if let times = receiveTimes {
        out.append(contentsOf: Array(FixedDecimal.format(times[i], decimals: 3).utf8))
        out.append(UInt8(ascii: " "))
      }
      out.append(contentsOf: line.bytes)
      out.append(UInt8(ascii: "\n"))
    }
    return out
  }

  /// Whole numbers without a fraction (`100`), others to one decimal (`102.5`).
  static func number(_ value: Double) -> String {
    value == value.rounded()
      ? FixedDecimal.format(value, decimals: 0) : FixedDecimal.format(value, decimals: 1)
  }
}
