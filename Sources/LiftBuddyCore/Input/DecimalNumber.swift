/// Plain decimal numbers as the clip and recorded streams write them:
/// `[+-]?[0-9]+(\.[0-9]+)?`.
///
/// The grammar is deliberately narrower than `Double(String)`: exponents,
/// hex, `nan`, `inf`, spaces and a bare `.` (`12.`, `.5`) are bad input,
/// because no clip sends them and accepting them would let a corrupted line
/// pass as a plausible number. It is the JSON number grammar without the
/// exponent.
///
/// Parsing is allocation-free on the hot path: the digits go into a `UInt64`
/// mantissa with a decimal exponent, and the `Double` is one exact
/// multiplication or division by an exact power of ten (Clinger's fast path),
/// which IEEE 754 rounds correctly. Only numbers outside that path (more than
/// 2^53 in the mantissa, or a decimal exponent beyond 22) take the slow,
/// allocating `Double(String)` route; no clip sends those.
enum DecimalNumber {
  /// Whether a sign is allowed: stream times are never signed.
  enum Sign {
    case optional
    case forbidden
  }

  /// The largest power of ten a `Double` holds exactly: 5^22 < 2^53, 5^23
  /// is not.
  private static let maxExactExponent = 22

  /// Mantissas up to 2^53 convert to `Double` exactly, the other half of
  /// the fast path's exactness condition.
  private static let maxExactMantissa: UInt64 = 1 << 53

  /// Nineteen decimal digits always fit a `UInt64`; past that the mantissa
  /// is abandoned for the slow path.
  private static let maxMantissaDigits = 19

  /// The value of `bytes` if the whole buffer is one decimal number, else nil.
  static func parse(_ bytes: UnsafeRawBufferPointer, sign: Sign = .optional) -> Double? {
    let count = bytes.count
    var index = 0
    var negative = false
    if count > 0, sign == .optional {
      let first = bytes[0]
      if first == ASCII.minus || first == ASCII.plus {
        negative = first == ASCII.minus
        index = 1
      }
    }

    var mantissa: UInt64 = 0
    var mantissaDigits = 0
    // Zeros seen after the last non-zero digit: they only scale the
    // mantissa if another non-zero digit follows, which keeps `1.50000`
    // and `100` on the fast path.
    var pendingZeros = 0
    var fractionDigits = 0
    var tooManyDigits = false
    var inFraction = false
    var digitsInPart = 0

    while index < count {
      let byte = bytes[index]
      if byte == ASCII.dot {
        guard !inFraction, digitsInPart > 0 else { return nil }
        inFraction = true
        digitsInPart = 0
        index += 1
        continue
      }
      let digit = byte &- ASCII.zero
      guard digit < 10 else { return nil }
      digitsInPart += 1
      if inFraction { fractionDigits += 1 }
      if digit == 0 {
        if mantissa != 0 { pendingZeros += 1 }
      } else if !tooManyDigits {
        if mantissaDigits + pendingZeros + 1 > maxMantissaDigits {
          tooManyDigits = true
        } else {
          for _ in 0..<pendingZeros { mantissa &*= 10 }
          mantissa = mantissa &* 10 &+ UInt64(digit)
          mantissaDigits += pendingZeros + 1
          pendingZeros = 0
        }
      }
      index += 1
    }
    // Digits on both sides of a dot, and at least one digit overall.
    guard digitsInPart > 0 else { return nil }

    if !tooManyDigits {
      if mantissa == 0 { return negative ? -0.0 : 0.0 }
      let exponent = pendingZeros - fractionDigits
      if mantissa <= maxExactMantissa, exponent >= -maxExactExponent, exponent <= maxExactExponent {
        var value = Double(mantissa)
        if exponent >= 0 {
          value *= powerOfTen(exponent)
        } else {
          value /= powerOfTen(-exponent)
        }
        return negative ? -value : value
      }
    }
    return slowParse(bytes)
  }

  /// The rare numbers the fast path cannot round correctly. The grammar is
  /// already checked, so `Double(String)` sees only digits, a sign and a dot.
  private static func slowParse(_ bytes: UnsafeRawBufferPointer) -> Double? {
    Double(String(decoding: bytes, as: UTF8.self))
  }

  /// Exact powers of ten up to `maxExactExponent`, as literals so that the
  /// compiler makes a constant table of them.
  private static func powerOfTen(_ exponent: Int) -> Double {
    switch exponent {
    case 0: 1e0
    case 1: 1e1
    case 2: 1e2
    case 3: 1e3
    case 4: 1e4
    case 5: 1e5
    case 6: 1e6
    case 7: 1e7
    case 8: 1e8
    case 9: 1e9
    case 10: 1e10
    case 11: 1e11
    case 12: 1e12
    case 13: 1e13
    case 14: 1e14
    case 15: 1e15
    case 16: 1e16
    case 17: 1e17
    case 18: 1e18
    case 19: 1e19
    case 20: 1e20
    case 21: 1e21
    default: 1e22
    }
  }
}
