/// RFC 3339 date-times (`2026-11-21T04:10:00.250Z`, `…+01:00`) to Unix
/// seconds.
///
/// Written by hand because the core imports no Foundation (it knows no
/// clocks and no locales), and the header's `started_at` is the only date it
/// ever reads. Leap seconds (`:60`) count as the next second's start, which
/// is what a POSIX clock would have shown.
enum RFC3339Timestamp {
  /// Unix seconds for `text`, or nil if it is not a valid RFC 3339 date-time.
  static func unixSeconds(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { unixSeconds(UnsafeRawBufferPointer($0)) }
  }

  static func unixSeconds(_ bytes: UnsafeRawBufferPointer) -> Double? {
    var scanner = Scanner(bytes: bytes)
    guard let year = scanner.digits(4), scanner.skip("-"),
      let month = scanner.digits(2), scanner.skip("-"),
      let day = scanner.digits(2), scanner.skipAny("Tt "),
      let hour = scanner.digits(2), scanner.skip(":"),
      let minute = scanner.digits(2), scanner.skip(":"),
      let second = scanner.digits(2)
    else { return nil }
    guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
      hour <= 23, minute <= 59, second <= 60
    else { return nil }

    var fraction = 0.0
    if scanner.skip(".") {
      var scale = 0.1
      var digitCount = 0
      while let digit = scanner.digits(1) {
        fraction += Double(digit) * scale
        scale /= 10
        digitCount += 1
      }
      guard digitCount > 0 else { return nil }
    }

    var offsetSeconds = 0
    if scanner.skipAny("Zz") {
      offsetSeconds = 0
    } else if let sign = scanner.sign() {
      guard let offsetHour = scanner.digits(2), scanner.skip(":"),
        let offsetMinute = scanner.digits(2),
        offsetHour <= 23, offsetMinute <= 59
      else { return nil }
      offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
    } else {
      return nil
    }
    guard scanner.atEnd else { return nil }

    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Double(seconds) + fraction
  }

  private static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2:
      let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
      return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard
  /// Hinnant's `days_from_civil`).
  private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// A cursor over the timestamp's bytes.
  private struct Scanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    var atEnd: Bool { index == bytes.count }

    /// Exactly `count` decimal digits as a number.
    mutating func digits(_ count: Int) -> Int? {
      guard index + count <= bytes.count else { return nil }
      var value = 0
      for offset in 0..<count {
        let digit = bytes[index + offset] &- ASCII.zero
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
      }
      index += count
      return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
      skipAny(String(character))
    }

    mutating func skipAny(_ characters: String) -> Bool {
      guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
      index += 1
      return true
    }

    /// +1 or −1 for an offset's sign.
    mutating func sign() -> Int? {
      guard index < bytes.count else { return nil }
      switch bytes[index] {
      case ASCII.plus:
        index += 1
        return 1
      case ASCII.minus:
        index += 1
        return -1
      default: return nil
      }
    }
  }
}
