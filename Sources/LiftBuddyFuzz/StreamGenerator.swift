#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--generate FILE [MEGABYTES]`: a synthetic recorded stream for `--bench`,
/// shaped like a real one: a header, then timed sonar rows at 25 Hz with
/// two attitude rows each (the IMU runs faster), squat-like heights in whole
/// centimetres as the original clip sends them, attitudes with two decimals,
/// and one sonar row in 50 carrying a device clock.
///
/// Deterministic and formatted into one reused buffer, so that 100 MB takes
/// seconds and the file never needs to be stored.
enum StreamGenerator {
  static let defaultMegabytes = 100
  static let sonarRateHz = 25
  static let attitudeRowsPerSonarRow = 2
  /// One rep every three seconds, 60 cm of travel, from a 50 cm floor.
  static let repPeriodS = 3.0
  static let bottomCm = 50.0
  static let travelCm = 60.0
  /// How often a sonar row carries the firmware's device-clock field.
  static let deviceClockEvery = 50

  /// `timed: false` writes a raw capture: the same lines, no header and no
  /// times, as the framer sees a clip live.
  static func write(path: String, megabytes: Int, timed: Bool) -> Int32 {
    guard let file = fopen(path, "wb") else {
      return PlainMode.fail("liftbuddy-fuzz: cannot create \(path)\n")
    }
    defer { fclose(file) }
    let target = megabytes * 1_000_000
    var buffer: [UInt8] = []
    let flushAt = 1 << 20
    buffer.reserveCapacity(flushAt + 256)
    if timed {
      buffer.append(contentsOf: "# liftbuddy-stream 1\n# exercise: squat\n# load_kg: 100\n".utf8)
      buffer.append(contentsOf: "# source: generator\n".utf8)
    }
    var written = 0
    var row = 0
    var lines = 0
    let periodMs = 1000 / sonarRateHz
    while written + buffer.count < target {
      let ms = row * periodMs
      let phase = Double(ms) / 1000 / repPeriodS * 2 * Double.pi
      let height = bottomCm + travelCm * (0.5 + 0.5 * cos(phase))
      if timed { appendTime(ms, to: &buffer) }
      buffer.append(contentsOf: "s:".utf8)
      appendInteger(Int(height.rounded()), to: &buffer)
      if row % deviceClockEvery == 0 {
        buffer.append(UInt8(ascii: ":"))
        appendInteger(ms + 123_456, to: &buffer)
      }
      buffer.append(UInt8(ascii: "\n"))
      lines += 1
      for imu in 0..<attitudeRowsPerSonarRow {
        let imuMs = ms + (imu + 1) * periodMs / (attitudeRowsPerSonarRow + 1)
        if timed { appendTime(imuMs, to: &buffer) }
        buffer.append(contentsOf: "a:".utf8)
        appendHundredths(Int((300 * sin(phase + Double(imu))).rounded()), to: &buffer)
        buffer.append(UInt8(ascii: ":"))
        appendHundredths(Int((-150 * cos(phase * 2)).rounded()), to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        lines += 1
      }
      row += 1
      if buffer.count >= flushAt {
        written += buffer.count
        guard flush(&buffer, to: file) else {
          return PlainMode.fail("liftbuddy-fuzz: write failed\n")
        }
      }
    }
    written += buffer.count
    guard flush(&buffer, to: file) else { return PlainMode.fail("liftbuddy-fuzz: write failed\n") }
    print("generate: \(path): \(written) bytes, \(lines) lines")
    return 0
  }

  private static func flush(_ buffer: inout [UInt8], to file: UnsafeMutablePointer<FILE>) -> Bool {
    let count = buffer.count
    let done = buffer.withUnsafeBytes { fwrite($0.baseAddress, 1, count, file) }
    buffer.removeAll(keepingCapacity: true)
    return done == count
  }

  /// Seconds with three decimals, then the separating space.
  private static func appendTime(_ ms: Int, to buffer: inout [UInt8]) {
    appendInteger(ms / 1000, to: &buffer)
    buffer.append(UInt8(ascii: "."))
    let fraction = ms % 1000
    buffer.append(UInt8(ascii: "0") + UInt8(fraction / 100))
    buffer.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
    buffer.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    buffer.append(UInt8(ascii: " "))
  }

  private static func appendHundredths(_ value: Int, to buffer: inout [UInt8]) {
    if value < 0 { buffer.append(UInt8(ascii: "-")) }
    let magnitude = value.magnitude
    appendInteger(Int(magnitude / 100), to: &buffer)
    buffer.append(UInt8(ascii: "."))
    buffer.append(UInt8(ascii: "0") + UInt8(magnitude / 10 % 10))
    buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
  }

  private static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
    // Short strings live inline: no allocation per number.
    buffer.append(contentsOf: String(value).utf8)
  }
}
