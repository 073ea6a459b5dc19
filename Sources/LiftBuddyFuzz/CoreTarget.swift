import LiftBuddyCore

/// The `core` target: one input, seen the three ways the core sees bytes
/// (framer and parser, as the daemon does live; the stream reader, as replay
/// and `analyze` do; and the analyzer behind both), with the invariants that
/// must hold for any input checked by `precondition`, so that a violation is
/// a crash that libFuzzer keeps.
///
/// The input is also fed in two chunks, cut at a place the input chooses,
/// because transports split lines anywhere and the result must not depend
/// on where.
func fuzzCore(_ data: UnsafeRawBufferPointer) {
  let cut = data.isEmpty ? 0 : Int(data[0]) % (data.count + 1)
  let lines = checkFramerAndParser(data, cut: cut)
  let rows = checkStreamReader(data, cut: cut)
  feedAnalyzer(lines: lines)
  feedAnalyzer(rows: rows)
}

/// A framed line copied out of its callback.
private enum CopiedLine: Equatable {
  case line([UInt8])
  case overlong
}

/// A stream row copied out of its callback.
private enum CopiedRow: Equatable {
  case header(StreamHeader)
  case line(t: Double, bytes: [UInt8])
  case rejected(LineRejection)
}

private func frame(_ data: UnsafeRawBufferPointer, cut: Int) -> [CopiedLine] {
  var framer = LineFramer()
  var lines: [CopiedLine] = []
  let collect: (FramedLine) -> Void = { framed in
    switch framed {
    case .line(let bytes): lines.append(.line(Array(bytes)))
    case .overlong: lines.append(.overlong)
    }
  }
  framer.append(UnsafeRawBufferPointer(rebasing: data[..<cut]), collect)
  framer.append(UnsafeRawBufferPointer(rebasing: data[cut...]), collect)
  framer.finish(collect)
  return lines
}

private func checkFramerAndParser(_ data: UnsafeRawBufferPointer, cut: Int) -> [CopiedLine] {
  let whole = frame(data, cut: data.count)
  precondition(frame(data, cut: cut) == whole, "framing depends on where the input was cut")
  for case .line(let bytes) in whole {
    precondition(bytes.count <= LineFramer.defaultMaxLineLength, "a line beyond the bound")
    precondition(!bytes.contains(0x0A), "a line with a newline inside")
    let parsed = bytes.withUnsafeBytes { LineParser.parse($0) }
    checkReading(parsed, line: bytes)
    if let text = String(validating: bytes, as: UTF8.self) {
      precondition(LineParser.parse(text) == parsed, "String and byte parsing disagree")
    }
  }
  return whole
}

/// A reading is finite, in range, and its first number is what
/// `Double(String)` makes of the same digits.
private func checkReading(_ parsed: ParsedLine, line: [UInt8]) {
  guard case .reading(let reading) = parsed else { return }
  var body = line[...]
  if body.last == 0x0D { body = body.dropLast() }
  let fields = body.split(separator: 0x3A, omittingEmptySubsequences: false)
  let first = Double(String(decoding: fields[1], as: UTF8.self))
  switch reading {
  case .sonar(let centimetres, _):
    precondition(centimetres.isFinite && centimetres.magnitude <= LineParser.sonarLimitCm)
    precondition(first == centimetres, "sonar value differs from Double(String)")
  case .attitude(let pitch, let roll, _):
    precondition(pitch.magnitude <= LineParser.angleLimitDegrees)
    precondition(roll.magnitude <= LineParser.angleLimitDegrees)
    precondition(first == pitch, "pitch differs from Double(String)")
    precondition(
      Double(String(decoding: fields[2], as: UTF8.self)) == roll, "roll differs from Double(String)"
    )
  }
}

private func read(_ data: UnsafeRawBufferPointer, cut: Int) -> [CopiedRow] {
  var reader = StreamReader()
  var rows: [CopiedRow] = []
  let collect: (StreamRow) -> Void = { row in
    switch row {
    case .header(let header): rows.append(.header(header))
    case .line(let t, let bytes): rows.append(.line(t: t, bytes: Array(bytes)))
    case .rejected(let rejection): rows.append(.rejected(rejection))
    }
  }
  reader.append(UnsafeRawBufferPointer(rebasing: data[..<cut]), collect)
  reader.append(UnsafeRawBufferPointer(rebasing: data[cut...]), collect)
  reader.finish(collect)
  return rows
}

private func checkStreamReader(_ data: UnsafeRawBufferPointer, cut: Int) -> [CopiedRow] {
  let whole = read(data, cut: data.count)
  precondition(read(data, cut: cut) == whole, "reading depends on where the input was cut")
  var headers = 0
  var lastT = 0.0
  for (index, row) in whole.enumerated() {
    switch row {
    case .header:
      precondition(index == 0, "the header must come first")
      headers += 1
    case .line(let t, _):
      precondition(t.isFinite && t >= lastT, "row times must be finite and never decrease")
      lastT = t
    case .rejected:
      break
    }
  }
  precondition(headers == 1, "the header must come exactly once")
  return whole
}

/// The live path: framed lines at a steady 20 Hz receive clock.
private func feedAnalyzer(lines: [CopiedLine]) {
  var analyzer = Analyzer(session: SessionInfo(source: "fuzz:live"))
  var events: [AnalyzerEvent] = []
  for (index, line) in lines.enumerated() {
    switch line {
    case .line(let bytes):
      bytes.withUnsafeBytes { analyzer.ingest(line: $0, at: Double(index) / 20, into: &events) }
    case .overlong:
      analyzer.countRejected(.overlong)
    }
  }
  analyzer.finish(into: &events)
}

/// The replay path: rows with the stream's own times.
private func feedAnalyzer(rows: [CopiedRow]) {
  var analyzer = Analyzer(session: SessionInfo(source: "fuzz:replay"))
  var events: [AnalyzerEvent] = []
  for row in rows {
    switch row {
    case .header(let header):
      analyzer.prepareNextSet(
        exercise: header.exercise.flatMap(Exercise.init(rawValue:)), loadKg: header.loadKg)
    case .line(let t, let bytes):
      bytes.withUnsafeBytes { analyzer.ingest(line: $0, at: t, into: &events) }
    case .rejected(let rejection):
      analyzer.countRejected(rejection)
    }
  }
  analyzer.finish(into: &events)
}
