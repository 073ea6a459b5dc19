/// Turns one protocol line into a reading or the reason it is not one.
///
/// The grammar (contract §1, plus the repository firmware's extensions):
///
///     s:<cm>[:<device_ms>[:<ignored>…]]
///     a:<pitch>:<roll>[:<device_ms>[:<ignored>…]]
///
/// Extra trailing fields never cause a rejection, so that newer firmware
/// stays readable by this version; only the first one is read, and only if
/// it is a plain unsigned integer (the device clock in milliseconds).
///
/// Grammar errors win over range errors, and fields are checked left to
/// right, so each bad line has exactly one, predictable, rejection.
/// This runs once per line at millions of lines per second: it reads the
/// bytes in place and never allocates (see `DecimalNumber`).
public enum LineParser {
  /// Sonar values beyond ±100 m cannot come from an HC-SR04 (4 m range) or
  /// any successor on a barbell; whether a value inside is *plausible* is the
  /// despiker's call, with the signal's context. The bound only keeps absurd
  /// numbers (`s:1e300` written out) away from the arithmetic downstream.
  public static let sonarLimitCm = 10_000.0

  /// One full turn either way: an attitude outside it is not an angle the
  /// MPU6050 fusion reports, whatever the firmware's convention.
  public static let angleLimitDegrees = 360.0

  /// `UInt64.max` has 20 digits, so a longer field cannot be a device clock.
  static let maxDeviceMillisDigits = 20

  public static func parse(_ line: UnsafeRawBufferPointer) -> ParsedLine {
    var end = line.count
    if end > 0, line[end - 1] == ASCII.carriageReturn { end -= 1 }
    guard end > 0 else { return .rejected(.empty) }
    // Both prefixes are one letter and a colon.
    guard end >= 2, line[1] == ASCII.colon else { return .rejected(.unknownPrefix) }
    var fields = FieldCursor(line: line, start: 2, end: end)
    switch line[0] {
    case ASCII.lowercaseS:
      guard let centimetres = DecimalNumber.parse(fields.next()) else {
        return .rejected(.badNumber)
      }
      let deviceMillis = fields.hasMore ? deviceMillis(fields.next()) : nil
      guard centimetres.magnitude <= sonarLimitCm else { return .rejected(.outOfRange) }
      return .reading(.sonar(centimetres: centimetres, deviceMillis: deviceMillis))
    case ASCII.lowercaseA:
      guard let pitch = DecimalNumber.parse(fields.next()) else { return .rejected(.badNumber) }
      guard fields.hasMore else { return .rejected(.missingField) }
      guard let roll = DecimalNumber.parse(fields.next()) else { return .rejected(.badNumber) }
      let deviceMillis = fields.hasMore ? deviceMillis(fields.next()) : nil
      guard pitch.magnitude <= angleLimitDegrees, roll.magnitude <= angleLimitDegrees else {
        return .rejected(.outOfRange)
      }
      return .reading(.attitude(pitchDegrees: pitch, rollDegrees: roll, deviceMillis: deviceMillis))
    default:
      return .rejected(.unknownPrefix)
    }
  }

  /// For tests and tools; the hot path hands in bytes.
  public static func parse(_ line: String) -> ParsedLine {
    var line = line
    return line.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
  }

  /// The device clock if `field` is an unsigned decimal integer that fits a
  /// `UInt64`; anything else is a field this version does not know, ignored.
  static func deviceMillis(_ field: UnsafeRawBufferPointer) -> UInt64? {
    guard field.count > 0, field.count <= maxDeviceMillisDigits else { return nil }
    var value: UInt64 = 0
    for byte in field {
      let digit = byte &- ASCII.zero
      guard digit < 10 else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
    }
    return value
  }
}

/// Walks the `:`-separated fields of a line in place.
private struct FieldCursor {
  let line: UnsafeRawBufferPointer
  var start: Int
  let end: Int
  /// False once the last field has been taken; a line `s:` still has one
  /// (empty) field, so that an empty number is a bad number, not a missing one.
  private(set) var hasMore = true

  init(line: UnsafeRawBufferPointer, start: Int, end: Int) {
    self.line = line
    self.start = start
    self.end = end
  }

  /// The next field, empty once there are none left.
  mutating func next() -> UnsafeRawBufferPointer {
    guard hasMore else { return UnsafeRawBufferPointer(rebasing: line[end..<end]) }
    var index = start
    while index < end, line[index] != ASCII.colon { index += 1 }
    let field = UnsafeRawBufferPointer(rebasing: line[start..<index])
    if index < end {
      start = index + 1
    } else {
      start = end
      hasMore = false
    }
    return field
  }
}
