import LiftBuddyDaemon

/// The socket command target: arbitrary client bytes through the server's
/// own framing and parser, checking what must hold whatever a client sends.
///
/// - Framing does not depend on how the bytes were split into reads: the
///   input fed whole and fed in small pieces (then ended) gives the same
///   frames.
/// - No line ever exceeds the bound or contains a newline.
/// - Every accepted command survives a round trip: re-encoded the way a
///   client sends it and parsed again, it is the same command.
/// - Every accepted load is within the range the config file takes.
/// - Every rejection has a message to send.
func fuzzSocketCommand(_ data: UnsafeRawBufferPointer) {
  let maxLineBytes = 256
  var whole = CommandFramer(maxLineBytes: maxLineBytes)
  var wholeFrames: [CommandFramer.Frame] = []
  whole.feed(data) { wholeFrames.append($0) }
  whole.finish { wholeFrames.append($0) }

  // Piece sizes from the first byte, so the fuzzer explores read boundaries.
  let piece = Int(data.first ?? 0) % 7 + 1
  var pieces = CommandFramer(maxLineBytes: maxLineBytes)
  var pieceFrames: [CommandFramer.Frame] = []
  var offset = 0
  while offset < data.count {
    let end = min(offset + piece, data.count)
    pieces.feed(UnsafeRawBufferPointer(rebasing: data[offset..<end])) { pieceFrames.append($0) }
    offset = end
  }
  pieces.finish { pieceFrames.append($0) }
  precondition(wholeFrames == pieceFrames, "framing depends on read boundaries")

  for frame in wholeFrames {
    guard case .line(let line) = frame else { continue }
    precondition(line.count <= maxLineBytes, "line over the bound")
    precondition(!line.contains(UInt8(ascii: "\n")), "newline inside a line")
    switch CommandParser.parse(line) {
    case .success(let command):
      if case .set(_, let load?) = command {
        precondition(DaemonConfiguration.loadKgRange.contains(load), "load \(load) out of range")
      }
      let again = CommandParser.parse(Array(command.jsonLine().utf8))
      precondition(again == .success(command), "round trip changed \(command)")
    case .failure(let error):
      precondition(!error.message.isEmpty, "empty error message")
    }
  }
}
