import LiftBuddyCore
import SystemPackage

/// A recorded stream played back (`replay:FILE`): at the recording's own
/// pace, N times faster, or as fast as the analyzer takes it (`max`), once
/// or in a loop.
///
/// The source hands on the file's bytes as they are (`.recorded`): the
/// pipeline runs them through the core's `RecordedStreamAnalysis`, the very
/// adapter `liftbuddy analyze` uses, so that the reports are byte-identical
/// by construction. Pacing is all this source adds: below `max` it reads the
/// rows' times (with a `StreamReader` of its own) only to know when to hand
/// each run of rows on. The file is read in chunks, on demand: the stream is
/// pull-driven, so memory stays bounded whatever the file's length.
public struct ReplaySource: ClipSource {
  public let name: String
  public let hints: SourceHints
  public let path: String
  public let header: StreamHeader
  private let speed: ReplaySpeed
  private let loop: Bool
  private let nominalRateHz: Double

  /// Opens the file once to read its header; throws if it cannot be read.
  public init(
    path: String, speed: ReplaySpeed = .factor(1), loop: Bool = false, nominalRateHz: Double = 20
  )
    throws(Errno)
  {
    self.path = path
    self.speed = speed
    self.loop = loop
    self.nominalRateHz = nominalRateHz
    self.name = "replay:" + (FilePath(path).lastComponent?.string ?? path)
    let header = try Self.readHeader(path: path, nominalRateHz: nominalRateHz)
    self.header = header
    // What the header says, for the daemon's start-up log and its choice
    // of exercise and load; the analysis itself reads the header again.
    let session = RecordedStreamAnalysis.session(
      for: header, sourceName: name, exercise: nil, loadKg: nil)
    self.hints = SourceHints(
      timing: .recorded(wallClockOrigin: session.wallClockOrigin),
      exercise: session.exercise, loadKg: session.loadKg, nominalRateHz: header.rateHz)
  }

  /// Hands each run of rows on and waits until the pipeline has applied it
  /// before reading on: at `--speed max` the file is read no faster than
  /// it is analysed.
  public func start(clock: SourceClock, output: SourceOutput) {
    let player = ReplayPlayer(
      path: path, speed: speed, loop: loop, nominalRateHz: nominalRateHz)
    let task = Task {
      while let event = await player.next() {
        guard await output.send(event) else { return }
      }
      output.finish()
    }
    output.onClose { task.cancel() }
  }

  /// Pull-driven: the next chunk is read when the consumer asks for it.
  public func events(clock: SourceClock) -> AsyncStream<SourceEvent> {
    let player = ReplayPlayer(
      path: path, speed: speed, loop: loop, nominalRateHz: nominalRateHz)
    return AsyncStream(unfolding: { await player.next() }, onCancel: nil)
  }

  /// Reads chunks until the reader brings out the header.
  private static func readHeader(path: String, nominalRateHz: Double) throws(Errno) -> StreamHeader
  {
    let fd: FileDescriptor
    do { fd = try FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec) } catch {
      throw error as? Errno ?? .ioError
    }
    defer { try? fd.close() }
    var reader = StreamReader(defaultRateHz: nominalRateHz)
    var header: StreamHeader?
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while header == nil {
      let n: Int
      do { n = try chunk.withUnsafeMutableBytes { try fd.read(into: $0) } } catch {
        throw error as? Errno ?? .ioError
      }
      if n == 0 {
        reader.finish { if case .header(let h) = $0 { header = h } }
        break
      }
      chunk.withUnsafeBytes {
        reader.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) {
          if case .header(let h) = $0 { header = h }
        }
      }
    }
    return header ?? StreamHeader()
  }
}
