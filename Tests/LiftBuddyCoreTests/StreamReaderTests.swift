import Testing

@testable import LiftBuddyCore

/// What a reader delivered, copied out of the callback.
private enum Row: Equatable, CustomStringConvertible {
  case header(StreamHeader)
  case line(Double, String)
  case rejected(LineRejection)

  var description: String {
    switch self {
    case .header(let header): "header(\(header))"
    case .line(let t, let text): "line(\(t), \(text.debugDescription))"
    case .rejected(let rejection): "rejected(\(rejection))"
    }
  }
}

private func read(_ chunks: [[UInt8]], defaultRateHz: Double = 20) -> [Row] {
  var reader = StreamReader(defaultRateHz: defaultRateHz)
  var rows: [Row] = []
  let collect: (StreamRow) -> Void = { row in
    switch row {
    case .header(let header): rows.append(.header(header))
    case .line(let t, let bytes): rows.append(.line(t, String(decoding: bytes, as: UTF8.self)))
    case .rejected(let rejection): rows.append(.rejected(rejection))
    }
  }
  for chunk in chunks {
    chunk.withUnsafeBytes { reader.append($0, collect) }
  }
  reader.finish(collect)
  return rows
}

private func read(_ text: String, defaultRateHz: Double = 20) -> [Row] {
  read([Array(text.utf8)], defaultRateHz: defaultRateHz)
}

/// The example of contract §2, verbatim.
private let contractExample = """
  # liftbuddy-stream 1
  # exercise: squat
  # load_kg: 100
  # source: serial:/dev/ttyUSB0
  0.000 s:52
  0.011 a:1.5:-0.3
  0.049 s:52
  0.061 a:1.4:-0.2

  """

@Suite struct StreamReaderTests {
  @Test func readsTheContractExample() {
    let header = StreamHeader(
      formatVersion: 1, exercise: "squat", loadKg: 100, source: "serial:/dev/ttyUSB0")
    #expect(
      read(contractExample) == [
        .header(header), .line(0, "s:52"), .line(0.011, "a:1.5:-0.3"), .line(0.049, "s:52"),
        .line(0.061, "a:1.4:-0.2"),
      ])
  }

  @Test func readsCRLFFilesTheSame() {
    let crlf = contractExample.replacingNewlines(with: "\r\n")
    #expect(read(crlf) == read(contractExample))
  }

  @Test func rowsSplitAtEveryBytePositionComeOutTheSame() {
    let bytes = Array((contractExample + "s:53\nbad\n0.5x s:1\n0.1 s:1\n# later\n9 s:2").utf8)
    let whole = read([bytes])
    #expect(whole.count == 10)
    for cut in 0...bytes.count {
      #expect(read([Array(bytes[..<cut]), Array(bytes[cut...])]) == whole, "cut at \(cut)")
    }
    #expect(read(bytes.map { [$0] }) == whole)
  }

  @Test func parsesEveryKnownHeaderKeyAndKeepsTheOthersInOrder() {
    let text = """
      # liftbuddy-stream 1
      # exercise: bench_press
      # load_kg: 82.5
      # source: ble:C8:FD:19:00:11:22
      # rate_hz: 25
      # started_at: 2026-11-21T04:10:00.5Z
      # athlete: Ana  Lima
      # firmware:   2.1\t
      # just a comment, not a key: value
      #
      # bar: 20
      s:52

      """
    var expected = StreamHeader(
      formatVersion: 1, exercise: "bench_press", loadKg: 82.5, source: "ble:C8:FD:19:00:11:22",
      rateHz: 25,
      startedAt: "2026-11-21T04:10:00.5Z", startedAtUnix: 1_795_234_200.5)
    expected.extra = [
      (key: "athlete", value: "Ana  Lima"), (key: "firmware", value: "2.1"),
      (key: "bar", value: "20"),
    ]
    let rows = read(text)
    #expect(rows == [.header(expected), .line(0, "s:52")])
  }

  @Test func unparseableHeaderValuesLeaveTheirFieldEmpty() {
    let text = """
      # load_kg: heavy
      # rate_hz: 0
      # started_at: yesterday
      # liftbuddy-stream two

      """
    #expect(read(text) == [.header(StreamHeader(startedAt: "yesterday"))])
    #expect(read("# load_kg: -5\n# rate_hz: 1e3\n") == [.header(StreamHeader())])
    #expect(read("# rate_hz: 20000\n") == [.header(StreamHeader())])
  }

  @Test func commentsAfterTheFirstDataRowAreSkipped() {
    let rows = read("# exercise: squat\n0 s:50\n# exercise: deadlift\n# note\n1 s:51\n")
    #expect(rows == [.header(StreamHeader(exercise: "squat")), .line(0, "s:50"), .line(1, "s:51")])
  }

  @Test func emitsTheHeaderOnceEvenForAStreamWithoutRows() {
    #expect(read("") == [.header(StreamHeader())])
    #expect(
      read("# liftbuddy-stream 1\n# exercise: squat") == [
        .header(StreamHeader(formatVersion: 1, exercise: "squat"))
      ])
    // Before a rejection too, when that is the first row.
    #expect(
      read("-1 s:50\n0 s:1\n") == [.header(StreamHeader()), .rejected(.badRow), .line(0, "s:1")])
    let overlong = String(repeating: "9", count: 300)
    #expect(read("\(overlong)\n") == [.header(StreamHeader()), .rejected(.overlong)])
  }

  @Test func timesARawCaptureAtTheHeaderRate() {
    let text = """
      # rate_hz: 25
      a:0:0
      s:50
      a:1:1
      s:51
      s:52
      a:2:2
      garbage
      s:53

      """
    #expect(
      read(text) == [
        .header(StreamHeader(rateHz: 25)), .line(0, "a:0:0"), .line(0, "s:50"), .line(0, "a:1:1"),
        .line(0.04, "s:51"), .line(0.08, "s:52"), .line(0.08, "a:2:2"), .line(0.08, "garbage"),
        .line(0.12, "s:53"),
      ])
  }

  @Test func timesARawCaptureAtTheDefaultRateWithoutAHeader() {
    #expect(
      read("s:50\ns:51\ns:x\ns:52\n", defaultRateHz: 10) == [
        .header(StreamHeader()), .line(0, "s:50"), .line(0.1, "s:51"), .line(0.2, "s:x"),
        .line(0.3, "s:52"),
      ])
  }

  @Test func longRawCapturesDoNotAccumulateRoundingError() {
    let text = String(repeating: "s:50\n", count: 100_001)
    guard case .line(let t, _) = read(text).last else {
      Issue.record("no line")
      return
    }
    #expect(t == 5000)
  }

  @Test func rejectsTimeGoingBackwardsAndKeepsTheLastGoodTime() {
    let rows = read("1.0 s:50\n0.5 s:51\n1.0 s:52\n0.9 s:53\n2 s:54\n")
    #expect(
      rows == [
        .header(StreamHeader()), .line(1, "s:50"), .rejected(.timeWentBackwards), .line(1, "s:52"),
        .rejected(.timeWentBackwards), .line(2, "s:54"),
      ])
  }

  @Test func rejectsRowsThatMeanToBeTimedButAreNot() {
    for row in [
      "0.0x s:52", "12", "12\ts:52", "-1 s:52", "+1 s:52", "1e3 s:52", "1. s:52", ".5 s:52",
      "- s:1", "0x10 s:1",
    ] {
      #expect(read(row + "\n") == [.header(StreamHeader()), .rejected(.badRow)], "\(row)")
    }
  }

  @Test func rejectsTimesBeyondTheBound() {
    // 10^16 s once reached the report's date arithmetic and trapped there.
    #expect(
      read("10000000000 s:1\n10000000000.001 s:2\n9999998446240000 s:3\n") == [
        .header(StreamHeader()), .line(1e10, "s:1"), .rejected(.badRow), .rejected(.badRow),
      ])
  }

  @Test func passesTheLineExactlyAsWritten() {
    // One space separates; anything after it, spaces included, is the line.
    #expect(
      read("0.5  s:52\n3 \n4 s:1 \n") == [
        .header(StreamHeader()), .line(0.5, " s:52"), .line(3, ""), .line(4, "s:1 "),
      ])
  }

  @Test func passesBareGarbageOnForTheParserToCountOnce() {
    #expect(
      read("hello world\n\n\u{FF}\n") == [
        .header(StreamHeader()), .line(0, "hello world"), .line(0, ""), .line(0, "\u{FF}"),
      ])
  }

  @Test func continuesTheClockOfTheLastTimedRowInAMixedFile() {
    let text = """
      s:40
      s:41
      10.0 s:50
      10.01 a:1:1
      s:51
      a:2:2
      s:52
      10.05 s:53
      s:54

      """
    #expect(
      read(text).map(\.rounded) == [
        .header(StreamHeader()), .line(0, "s:40"), .line(0.05, "s:41"), .line(10, "s:50"),
        .line(10.01, "a:1:1"),
        .line(10.06, "s:51"), .line(10.06, "a:2:2"), .line(10.11, "s:52"),
        .rejected(.timeWentBackwards),
        .line(10.16, "s:54"),
      ])
  }

  @Test func blankRowsAreLayoutInTheHeaderAndBareRowsAfterIt() {
    let text = "\n# exercise: squat\r\n\n# load_kg: 60\n\n0 s:1\n\n1 s:2\n"
    #expect(
      read(text) == [
        .header(StreamHeader(exercise: "squat", loadKg: 60)), .line(0, "s:1"), .line(0, ""),
        .line(1, "s:2"),
      ])
  }

  @Test func keepsTheHeaderReadableAfterward() {
    var reader = StreamReader()
    Array("# exercise: deadlift\n# rate_hz: 40\n0 s:1\n".utf8).withUnsafeBytes {
      reader.append($0) { _ in }
    }
    #expect(reader.header == StreamHeader(exercise: "deadlift", rateHz: 40))
  }

  @Test func boundsAWholeRowTimeIncluded() {
    var reader = StreamReader(maxLineLength: 10)
    var rows: [Row] = []
    let collect: (StreamRow) -> Void = { row in
      switch row {
      case .header: break
      case .line(let t, let bytes): rows.append(.line(t, String(decoding: bytes, as: UTF8.self)))
      case .rejected(let rejection): rows.append(.rejected(rejection))
      }
    }
    Array("1.5 s:1234\n1.50 s:1234\n2 s:1\n".utf8).withUnsafeBytes { reader.append($0, collect) }
    reader.finish(collect)
    #expect(rows == [.line(1.5, "s:1234"), .rejected(.overlong), .line(2, "s:1")])
  }

  @Test func skipsAByteOrderMarkAtTheStart() {
    #expect(
      read("\u{FEFF}# exercise: squat\ns:1\n") == [
        .header(StreamHeader(exercise: "squat")), .line(0, "s:1"),
      ])
  }
}

extension Row {
  /// Times rounded to the microsecond, for expectations computed by hand.
  fileprivate var rounded: Row {
    guard case .line(let t, let text) = self else { return self }
    return .line((t * 1e6).rounded() / 1e6, text)
  }
}

extension String {
  fileprivate func replacingNewlines(with separator: String) -> String {
    split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
  }
}

@Suite struct RFC3339TimestampTests {
  @Test func convertsValidDateTimes() {
    #expect(RFC3339Timestamp.unixSeconds("1970-01-01T00:00:00Z") == 0)
    #expect(RFC3339Timestamp.unixSeconds("2000-02-29T12:00:00Z") == 951_825_600)
    #expect(RFC3339Timestamp.unixSeconds("2026-11-21t05:10:00+01:00") == 1_795_234_200)
    #expect(RFC3339Timestamp.unixSeconds("2026-11-21 03:40:00.25-00:30") == 1_795_234_200.25)
    #expect(RFC3339Timestamp.unixSeconds("1969-12-31T23:59:59z") == -1)
  }

  @Test func rejectsInvalidOnes() {
    for text in [
      "", "2026-11-21", "2026-11-21T04:10:00", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z",
      "2026-11-21T24:00:00Z", "2026-11-21T04:60:00Z", "2026-11-21T04:10:61Z",
      "2026-11-21T04:10:00.Z",
      "2026-11-21T04:10:00+0100", "2026-11-21T04:10:00Zjunk", "26-11-21T04:10:00Z",
      "２０２６-11-21T04:10:00Z",
    ] {
      #expect(RFC3339Timestamp.unixSeconds(text) == nil, "\(text)")
    }
  }
}
