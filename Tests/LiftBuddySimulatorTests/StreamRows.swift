import LiftBuddyCore

/// A simulated stream read back the way every tool reads one, through the
/// core's `StreamReader`, so tests check the contract and not our writer.
struct StreamRows {
  var header = StreamHeader()
  var lines: [(t: Double, text: String)] = []
  var rejections: [LineRejection] = []

  init(_ bytes: [UInt8]) {
    var reader = StreamReader(defaultRateHz: 20)
    var header = StreamHeader()
    var lines: [(t: Double, text: String)] = []
    var rejections: [LineRejection] = []
    let handle: (StreamRow) -> Void = { row in
      switch row {
      case .header(let h): header = h
      case .line(let t, let raw): lines.append((t, String(decoding: raw, as: UTF8.self)))
      case .rejected(let why): rejections.append(why)
      }
    }
    bytes.withUnsafeBytes { reader.append($0, handle) }
    reader.finish(handle)
    self.header = header
    self.lines = lines
    self.rejections = rejections
  }

  /// Sonar readings with their times, skipping anything that does not parse.
  var sonar: [(t: Double, cm: Double)] {
    lines.compactMap { line in
      if case .reading(.sonar(let cm, _)) = LineParser.parse(line.text) { return (line.t, cm) }
      return nil
    }
  }
}
