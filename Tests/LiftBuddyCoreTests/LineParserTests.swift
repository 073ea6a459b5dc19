import Testing

@testable import LiftBuddyCore

@Suite struct LineParserTests {
  @Test func readsTheTwoPlainForms() {
    #expect(LineParser.parse("s:52") == .reading(.sonar(centimetres: 52, deviceMillis: nil)))
    #expect(LineParser.parse("s:123.4") == .reading(.sonar(centimetres: 123.4, deviceMillis: nil)))
    #expect(
      LineParser.parse("a:-1.5:0.25")
        == .reading(.attitude(pitchDegrees: -1.5, rollDegrees: 0.25, deviceMillis: nil)))
    #expect(
      LineParser.parse("a:+0.25:-0")
        == .reading(.attitude(pitchDegrees: 0.25, rollDegrees: 0, deviceMillis: nil)))
  }

  @Test func ignoresATrailingCarriageReturn() {
    #expect(LineParser.parse("s:52\r") == .reading(.sonar(centimetres: 52, deviceMillis: nil)))
    #expect(LineParser.parse("\r") == .rejected(.empty))
  }

  @Test func readsTheDeviceClockFromTheFirstExtraField() {
    #expect(
      LineParser.parse("s:52:123456") == .reading(.sonar(centimetres: 52, deviceMillis: 123_456)))
    #expect(
      LineParser.parse("a:1:2:0042")
        == .reading(.attitude(pitchDegrees: 1, rollDegrees: 2, deviceMillis: 42)))
    #expect(
      LineParser.parse("s:1:18446744073709551615")
        == .reading(.sonar(centimetres: 1, deviceMillis: UInt64.max)))
  }

  @Test func extraFieldsThatAreNotAClockAreIgnored() {
    let plain = ParsedLine.reading(.sonar(centimetres: 52, deviceMillis: nil))
    // One past UInt64.max, 21 digits, signed, fractional, empty, words.
    for line in [
      "s:52:18446744073709551616", "s:52:000000000000000000001", "s:52:+5", "s:52:1.5", "s:52:",
      "s:52::", "s:52:v2", "s:52:\u{FF}",
    ] {
      #expect(LineParser.parse(line) == plain, "\(line)")
    }
    // Only the first extra field is a clock; later ones never matter.
    #expect(LineParser.parse("s:52:7:x:y:zz") == .reading(.sonar(centimetres: 52, deviceMillis: 7)))
    #expect(LineParser.parse("s:52:x:7") == plain)
    #expect(
      LineParser.parse("a:1:2:9:garbage:1e9")
        == .reading(.attitude(pitchDegrees: 1, rollDegrees: 2, deviceMillis: 9)))
  }

  @Test func rejectsEveryKindOfBadLine() {
    let cases: [(String, LineRejection)] = [
      ("", .empty),
      ("x:1", .unknownPrefix), ("S:52", .unknownPrefix), ("s", .unknownPrefix),
      ("ss:1", .unknownPrefix),
      (" s:1", .unknownPrefix), ("52", .unknownPrefix), ("é:1", .unknownPrefix),
      (":1", .unknownPrefix),
      ("s:", .badNumber), ("s:abc", .badNumber), ("s:1e3", .badNumber), ("s:0x10", .badNumber),
      ("s:nan", .badNumber), ("s:inf", .badNumber), ("s:-inf", .badNumber), ("s: 52", .badNumber),
      ("s:52 ", .badNumber), ("s:5 2", .badNumber), ("s:12.", .badNumber), ("s:.5", .badNumber),
      ("s:-", .badNumber), ("s:+", .badNumber), ("s:--1", .badNumber), ("s:1.2.3", .badNumber),
      ("s:5\u{00B2}", .badNumber), ("s:٥", .badNumber),
      ("a:1.5", .missingField), ("a:", .badNumber), ("a:1.5:", .badNumber), ("a::1", .badNumber),
      ("a:x:1", .badNumber), ("a:1:x", .badNumber),
      ("s:10000.001", .outOfRange), ("s:-10001", .outOfRange), ("a:361:0", .outOfRange),
      ("a:0:-360.5", .outOfRange),
      ("s:99999999999999999999999999999999", .outOfRange),
    ]
    for (line, rejection) in cases {
      #expect(LineParser.parse(line) == .rejected(rejection), "\(line.debugDescription)")
    }
  }

  @Test func grammarErrorsComeBeforeRangeErrors() {
    #expect(LineParser.parse("a:999") == .rejected(.missingField))
    #expect(LineParser.parse("a:999:x") == .rejected(.badNumber))
  }

  @Test func rangeBoundsAreInclusive() {
    #expect(LineParser.parse("s:10000") == .reading(.sonar(centimetres: 10_000, deviceMillis: nil)))
    #expect(
      LineParser.parse("s:-10000.0") == .reading(.sonar(centimetres: -10_000, deviceMillis: nil)))
    #expect(
      LineParser.parse("a:360:-360")
        == .reading(.attitude(pitchDegrees: 360, rollDegrees: -360, deviceMillis: nil)))
  }

  @Test func rejectsArbitraryBytesWithoutCrashing() {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<20_000 {
      let length = Int(generator.next() % 24)
      var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
      if generator.next() % 2 == 0, length >= 2 {
        bytes[0] = generator.next() % 2 == 0 ? UInt8(ascii: "s") : UInt8(ascii: "a")
        bytes[1] = UInt8(ascii: ":")
      }
      let parsed = bytes.withUnsafeBytes { LineParser.parse($0) }
      if case .reading(let reading) = parsed {
        switch reading {
        case .sonar(let cm, _): #expect(cm.isFinite && cm.magnitude <= LineParser.sonarLimitCm)
        case .attitude(let pitch, let roll, _):
          #expect(
            pitch.magnitude <= LineParser.angleLimitDegrees
              && roll.magnitude <= LineParser.angleLimitDegrees)
        }
      }
    }
  }
}

@Suite struct DecimalNumberTests {
  private func parse(_ text: String, sign: DecimalNumber.Sign = .optional) -> Double? {
    var text = text
    return text.withUTF8 { DecimalNumber.parse(UnsafeRawBufferPointer($0), sign: sign) }
  }

  @Test func readsThePlainForms() {
    #expect(parse("123") == 123)
    #expect(parse("-1.5") == -1.5)
    #expect(parse("+0.25") == 0.25)
    #expect(parse("007") == 7)
    #expect(parse("0.000") == 0)
    #expect(parse("-0")?.sign == .minus)
    #expect(parse("1.50000000000000000000000") == 1.5)
    #expect(parse("100000000000000000000000000000") == 1e29)
  }

  @Test func timesTakeNoSign() {
    #expect(parse("+1", sign: .forbidden) == nil)
    #expect(parse("-1", sign: .forbidden) == nil)
    #expect(parse("1.25", sign: .forbidden) == 1.25)
  }

  @Test func fastPathBoundariesMatchTheStandardLibrary() {
    let cases = [
      "9007199254740992", "9007199254740993", "9007199254740995", "0.1", "0.3",
      "1.7976931348623157",
      "0.0000000000000000000001", "0.00000000000000000000001", "1234567890123456789",
      "12345678901234567890", "123456789012345678901234567890.5", "4.35", "0.000001",
      "3.0000000000000004",
      "2.2250738585072014", "9999999999999999999", "0." + String(repeating: "0", count: 30) + "17",
    ]
    for text in cases {
      #expect(parse(text) == Double(text), "\(text)")
    }
  }

  @Test func equalsDoubleParsingForRandomDecimals() {
    var generator = SplitMix64(seed: 42)
    var checked = 0
    for _ in 0..<200_000 {
      // Mostly the sensor-sized numbers of the fast path, some long ones
      // for the slow path and its boundary.
      let long = generator.next() % 4 == 0
      let integerDigits = Int(generator.next() % (long ? 20 : 6)) + 1
      let fractionDigits = Int(generator.next() % (long ? 20 : 6))
      var text = ["", "-", "+"][Int(generator.next() % 3)]
      for _ in 0..<integerDigits {
        text.append(Character(Unicode.Scalar(UInt8(48 + generator.next() % 10))))
      }
      if fractionDigits > 0 {
        text.append(".")
        for _ in 0..<fractionDigits {
          text.append(Character(Unicode.Scalar(UInt8(48 + generator.next() % 10))))
        }
      }
      let expected = Double(text)
      #expect(expected != nil)
      let parsed = parse(text)
      if parsed != expected || parsed?.sign != expected?.sign {
        Issue.record("\(text): \(String(describing: parsed)) != \(String(describing: expected))")
      }
      checked += 1
    }
    #expect(checked == 200_000)
  }
}

/// A tiny deterministic generator, so that a failing random case can be
/// reproduced from its seed.
private struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
