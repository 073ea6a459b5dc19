/// One parsed protocol line: what the clip measured, in the clip's own units.
///
/// Values are kept as the clip sent them (centimetres, degrees). Physical
/// plausibility (0 cm echoes, 400 cm no-echo readings) is the despiker's
/// business, not the parser's, because only the signal's context can tell a
/// spike from a real movement.
public enum Reading: Equatable, Sendable {
  /// `s:<cm>[:<device_ms>…]`: distance from the clip down to the floor.
  case sonar(centimetres: Double, deviceMillis: UInt64?)
  /// `a:<pitch>:<roll>[:<device_ms>…]`: bar attitude in degrees.
  case attitude(pitchDegrees: Double, rollDegrees: Double, deviceMillis: UInt64?)
}

/// Why a line was not accepted. The raw values are stable: they appear in
/// status events and logs.
public enum LineRejection: String, Sendable, CaseIterable, Error {
  case empty
  case unknownPrefix = "unknown_prefix"
  case badNumber = "bad_number"
  case missingField = "missing_field"
  case outOfRange = "out_of_range"
  case overlong
  case badRow = "bad_row"
  case timeWentBackwards = "time_went_backwards"
}

/// The result of parsing one line.
public enum ParsedLine: Equatable, Sendable {
  case reading(Reading)
  case rejected(LineRejection)
}
