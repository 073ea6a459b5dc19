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
    let body = UnsafeRawBufferPointer(rebasing: line[0..<end])
    switch body[0] {
    case ASCII.lowercaseS:
      let (centimetres, next) = number(in: body, from: 2)
      guard let centimetres else { return .rejected(.badNumber) }
      let deviceMillis = next < end ? deviceMillis(in: body, from: next + 1) : nil
      guard centimetres.magnitude <= sonarLimitCm else { return .rejected(.outOfRange) }
      return .reading(.sonar(centimetres: centimetres, deviceMillis: deviceMillis))
    case ASCII.lowercaseA:
      let (pitch, afterPitch) = number(in: body, from: 2)
      guard let pitch else { return .rejected(.badNumber) }
      guard afterPitch < end else { return .rejected(.missingField) }
      let (roll, next) = number(in: body, from: afterPitch + 1)
      guard let roll else { return .rejected(.badNumber) }
      let deviceMillis = next < end ? deviceMillis(in: body, from: next + 1) : nil
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

  /// The number field at `start` and the index of the `:` after it (or
  /// of the end); nil unless the whole field is a number.
  @inline(__always)
  private static func number(
    in line: UnsafeRawBufferPointer, from start: Int
  ) -> (value: Double?, end: Int) {
    let (value, end) = DecimalNumber.scan(line, from: start)
    guard end == line.count || line[end] == ASCII.colon else { return (nil, end) }
    return (value, end)
  }

  /// The device clock if the field at `start` is an unsigned decimal integer
  /// that fits a `UInt64`; anything else is a field this version does not
  /// know, ignored.
  static func deviceMillis(in line: UnsafeRawBufferPointer, from start: Int) -> UInt64? {
    var index = start
    var value: UInt64 = 0
    while index < line.count, line[index] != ASCII.colon {
      let digit = line[index] &- ASCII.zero
      guard digit < 10 else { return nil }
      let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      index += 1
    }
    // Leading zeros are allowed, so the digit count is bounded separately.
    let digits = index - start
    guard digits > 0, digits <= maxDeviceMillisDigits else { return nil }
    return value
  }

  /// `deviceMillis(in:from:)` for a whole buffer.
  static func deviceMillis(_ field: UnsafeRawBufferPointer) -> UInt64? {
    guard !field.contains(ASCII.colon) else { return nil }
    return deviceMillis(in: field, from: 0)
  }
}
