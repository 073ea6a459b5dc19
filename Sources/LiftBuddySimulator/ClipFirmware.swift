/// Which program runs on the clip. The contract lets any clip send the two
/// plain line forms; this repository's firmware adds a device-clock field and
/// keeps a fixed grid, and an analysis must work with both.
public enum ClipFirmware: String, Sendable, CaseIterable, Codable {
  /// The original sketch: `s:<cm>` and `a:<pitch>:<roll>`, integers (some
  /// builds one decimal), 15–40 Hz, IMU once or twice per ping. Its loop
  /// either keeps a timer grid or waits for the echo (`pulseIn`) and then
  /// `delay()`s, so its period grows with the bar's height. Out-of-range
  /// readings are printed as they come (0, 400+).
  case original
  /// Firmware/ in this repository: `s:<cm>:<millis>` and
  /// `a:<pitch>:<roll>:<millis>`, one decimal, both at 20 Hz on a fixed
  /// 50 ms ping grid; an `s:` line is written when its echo returns (so an
  /// `a:` line sampled meanwhile comes first); no line at all for a ping
  /// with no echo or a reading outside 2–400 cm; `a:` lines only after the
  /// one-second gyro calibration that follows power-on.
  case liftbuddy

  /// The Firmware/README's fixed sonar and IMU rate.
  public static let liftbuddyRateHz = 20.0
  /// The HC-SR04's range: the repository firmware drops readings outside it.
  public static let sonarRangeCm: ClosedRange<Double> = 2...400
}
