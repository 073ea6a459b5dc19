import Testing

@testable import LiftBuddyCore

/// What a framer delivered, copied out of the callback.
private enum Framed: Equatable, CustomStringConvertible {
  case line(String)
  case overlong

  var description: String {
    switch self {
    case .line(let text): "line(\(text.debugDescription))"
    case .overlong: "overlong"
    }
  }
}

/// Feeds `chunks` through one framer, then finishes it.
private func frame(_ chunks: [[UInt8]], maxLineLength: Int = LineFramer.defaultMaxLineLength)
  -> [Framed]
{
  var framer = LineFramer(maxLineLength: maxLineLength)
  var out: [Framed] = []
  let collect: (FramedLine) -> Void = { framed in
    switch framed {
    case .line(let bytes): out.append(.line(String(decoding: bytes, as: UTF8.self)))
    case .overlong: out.append(.overlong)
    }
  }
  for chunk in chunks {
    chunk.withUnsafeBytes { framer.append($0, collect) }
  }
  framer.finish(collect)
  return out
}

private func frame(_ text: String, maxLineLength: Int = LineFramer.defaultMaxLineLength) -> [Framed]
{
  frame([Array(text.utf8)], maxLineLength: maxLineLength)
}

@Suite struct LineFramerTests {
  @Test func splitsLinesAndDropsTheNewline() {
    #expect(frame("s:52\na:1.5:-0.3\n") == [.line("s:52"), .line("a:1.5:-0.3")])
  }

  @Test func dropsATrailingCarriageReturnOnly() {
    #expect(frame("s:52\r\na:1:2\r\n") == [.line("s:52"), .line("a:1:2")])
    // Only the one before the newline: an inner `\r` is part of the line.
    #expect(frame("s:\r52\r\r\n") == [.line("s:\r52\r")])
  }

  @Test func deliversEmptyLines() {
    #expect(frame("\n\r\ns:1\n\n") == [.line(""), .line(""), .line("s:1"), .line("")])
  }

  @Test func finishDeliversAnUnterminatedFinalLine() {
    #expect(frame("s:52\ns:53") == [.line("s:52"), .line("s:53")])
    #expect(frame("s:52\ns:53\r") == [.line("s:52"), .line("s:53")])
    #expect(frame("s:52\n") == [.line("s:52")])
    #expect(frame("") == [])
  }

  @Test func linesSplitAtEveryBytePositionComeOutTheSame() {
    let text = Array(
      "# liftbuddy-stream 1\r\n0.000 s:52\r\n0.011 a:1.5:-0.3\n\ns:40:1234\nlast".utf8)
    let whole = frame([text])
    #expect(whole.count == 6)
    for cut in 0...text.count {
      #expect(frame([Array(text[..<cut]), Array(text[cut...])]) == whole, "cut at \(cut)")
    }
    for first in 0...text.count {
      for second in first...text.count {
        let chunks = [Array(text[..<first]), Array(text[first..<second]), Array(text[second...])]
        #expect(frame(chunks) == whole, "cuts at \(first), \(second)")
      }
    }
    // One byte per call, the worst a transport can do.
    #expect(frame(text.map { [$0] }) == whole)
  }

  @Test func aLineAtTheBoundIsKeptAndOneByteMoreIsOverlong() {
    let atBound = String(repeating: "7", count: 16)
    #expect(frame("\(atBound)\n", maxLineLength: 16) == [.line(atBound)])
    #expect(frame("\(atBound)\r\n", maxLineLength: 16) == [.line(atBound)])
    #expect(frame("\(atBound)7\n", maxLineLength: 16) == [.overlong])
    // The same when the line spans calls, with and without its `\r`.
    let bytes = Array("\(atBound)\r\n".utf8)
    for cut in 0...bytes.count {
      #expect(
        frame([Array(bytes[..<cut]), Array(bytes[cut...])], maxLineLength: 16) == [.line(atBound)])
    }
    let tooLong = Array("\(atBound)7\r\n".utf8)
    for cut in 0...tooLong.count {
      #expect(
        frame([Array(tooLong[..<cut]), Array(tooLong[cut...])], maxLineLength: 16) == [.overlong])
    }
  }

  @Test func anOverlongLineIsReportedOnceAndTheNextLineIsRead() {
    let garbage = String(repeating: "x", count: 1000)
    #expect(frame("s:1\n\(garbage)\ns:2\n") == [.line("s:1"), .overlong, .line("s:2")])
    // Spread over many calls, still one report.
    let bytes = Array("s:1\n\(garbage)\ns:2\n".utf8)
    let chunks = stride(from: 0, to: bytes.count, by: 7).map {
      Array(bytes[$0..<min($0 + 7, bytes.count)])
    }
    #expect(frame(chunks) == [.line("s:1"), .overlong, .line("s:2")])
  }

  @Test func anOverlongFinalLineWithoutNewlineIsReportedOnce() {
    let garbage = Array(repeating: UInt8(ascii: "x"), count: 300)
    #expect(frame([garbage, garbage]) == [.overlong])
    #expect(frame([Array(repeating: UInt8(ascii: "x"), count: 257)]) == [.overlong])
  }

  @Test func aFramerIsReusableAfterFinish() {
    var framer = LineFramer()
    var lines: [String] = []
    let collect: (FramedLine) -> Void = {
      if case .line(let bytes) = $0 { lines.append(String(decoding: bytes, as: UTF8.self)) }
    }
    Array("s:1\ns:2".utf8).withUnsafeBytes { framer.append($0, collect) }
    framer.finish(collect)
    Array("s:3\n".utf8).withUnsafeBytes { framer.append($0, collect) }
    framer.finish(collect)
    #expect(lines == ["s:1", "s:2", "s:3"])
  }

  @Test func nonASCIIBytesPassThroughUntouched() {
    let bytes: [UInt8] = [0xFF, 0x00, 0x0A, 0xC3, 0xA9, 0x0D, 0x0A]
    var framer = LineFramer()
    var lines: [[UInt8]] = []
    let collect: (FramedLine) -> Void = { if case .line(let b) = $0 { lines.append(Array(b)) } }
    bytes.withUnsafeBytes { framer.append($0, collect) }
    framer.finish(collect)
    #expect(lines == [[0xFF, 0x00], [0xC3, 0xA9]])
  }

  @Test func newlinesAreFoundAtEveryOffsetOfAWord() {
    // The scan reads eight bytes at a time: put the newline in every lane.
    for length in 0..<20 {
      let line = String(repeating: "a", count: length)
      #expect(frame("\(line)\n\(line)\n") == [.line(line), .line(line)], "length \(length)")
    }
  }
}
