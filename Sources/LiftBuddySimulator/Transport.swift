/// How the clip's lines reached the recording, which decides what the
/// receive time `t` on each row looks like.
public enum Transport: String, Sendable, CaseIterable, Codable {
  /// USB serial: one line per row, a few milliseconds after the sample.
  case serial
  /// Bluetooth LE notifications: lines arrive in connection-event bursts.
  case ble
  /// A bare capture of the serial port: no timestamps at all, so the reader
  /// times rows from the header's `rate_hz` (contract section 2).
  case raw
}
