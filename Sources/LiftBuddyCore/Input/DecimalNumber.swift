/// Plain decimal numbers as the clip and recorded streams write them:
/// `[+-]?[0-9]+(\.[0-9]+)?`.
///
/// The grammar is deliberately narrower than `Double(String)`: exponents,
/// hex, `nan`, `inf`, spaces and a bare `.` (`12.`, `.5`) are bad input,
/// because no clip sends them and accepting them would let a corrupted line
/// pass as a plausible number. A `+` is accepted because the contract says
/// "optionally signed", leading zeros because they are unambiguous.
///
/// Parsing is allocation-free on the hot path: the digits go into a `UInt64`
/// mantissa, and the `Double` is one exact division by an exact power of ten
/// (Clinger's fast path), which IEEE 754 rounds correctly. Only numbers
/// outside that path (more than 19 digits, a mantissa above 2^53, or more
/// than 22 decimals) take the slow, allocating `Double(String)` route; no
/// clip sends those.
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

  /// Nineteen decimal digits always fit a `UInt64` (10^19 < 2^64); with
  /// more, the wrapped mantissa is ignored and the slow path decides.
  private static let maxMantissaDigits = 19

  /// The value of `bytes` if the whole buffer is one decimal number, else nil.
  static func parse(_ bytes: UnsafeRawBufferPointer, sign: Sign = .optional) -> Double? {
    let (value, end) = scan(bytes, from: 0, sign: sign)
    return end == bytes.count ? value : nil
  }

  /// Reads the number that starts at `start`, and returns it with the index
  /// of the first byte after it, so that a caller can check what follows
  /// (`:` or the end) without a second pass over the digits. The value is
  /// nil if the bytes from `start` do not begin with a well-formed number
  /// (`1.` or `.5` are not).
  @inline(__always)
  static func scan(
    _ bytes: UnsafeRawBufferPointer, from start: Int, sign: Sign = .optional
  ) -> (value: Double?, end: Int) {
    let count = bytes.count
    var index = start
    var negative = false
    if sign == .optional, index < count {
      let first = bytes[index]
      if first == ASCII.minus || first == ASCII.plus {
        negative = first == ASCII.minus
        index &+= 1
      }
    }

    var mantissa: UInt64 = 0
    let integerStart = index
    while index < count {
      let digit = bytes[index] &- ASCII.zero
      guard digit < 10 else { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      index &+= 1
    }
    var digits = index &- integerStart
    guard digits > 0 else { return (nil, index) }

    var fractionDigits = 0
    if index < count, bytes[index] == ASCII.dot {
      index &+= 1
      let fractionStart = index
      while index < count {
        let digit = bytes[index] &- ASCII.zero
        guard digit < 10 else { break }
        mantissa = mantissa &* 10 &+ UInt64(digit)
        index &+= 1
      }
      fractionDigits = index &- fractionStart
      guard fractionDigits > 0 else { return (nil, index) }
      digits &+= fractionDigits
    }

    if digits <= maxMantissaDigits, mantissa <= maxExactMantissa, fractionDigits <= maxExactExponent
    {
      var value = Double(mantissa)
      if fractionDigits > 0 { value /= powerOfTen(fractionDigits) }
      return (negative ? -value : value, index)
    }
    return (slowParse(UnsafeRawBufferPointer(rebasing: bytes[start..<index])), index)
  }

  /// The rare numbers the fast path cannot round correctly. The grammar is
  /// already checked, so `Double(String)` sees only digits, a sign and a dot.
  private static func slowParse(_ bytes: UnsafeRawBufferPointer) -> Double? {
    Double(String(decoding: bytes, as: UTF8.self))
  }

  /// Exact powers of ten up to `maxExactExponent`, as literals so that the
  /// compiler makes a constant table of them.
  @inline(__always)
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
