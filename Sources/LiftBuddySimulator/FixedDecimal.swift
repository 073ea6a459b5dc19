/// Formats numbers with a fixed count of decimals by integer arithmetic, so
/// the bytes written never depend on a platform's float printing.
enum FixedDecimal {
  static func format(_ value: Double, decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let negative = value < 0 && scaled != 0
    var digits = String(scaled)
    if decimals > 0 {
      if digits.count <= decimals {
        digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
      }
      digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimals))
    }
    return negative ? "-" + digits : digits
  }

  /// Rounds to `decimals` places, for the truth file's numbers.
  static func round(_ value: Double, _ decimals: Int) -> Double {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    return (value * scale).rounded() / scale
  }
}
