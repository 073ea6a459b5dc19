import LiftBuddyCore
import SystemPackage

/// A recorded stream played back (`replay:FILE`): at the recording's own
/// pace, N times faster, or as fast as the analyzer takes it (`max`), once
/// or in a loop.
///
/// The file is read in chunks with the core's `StreamReader`, on demand:
/// the stream is pull-driven, so a fast reader never buffers ahead of a slow
/// consumer and memory stays bounded whatever the file's length. The session
/// is the one `liftbuddy analyze` builds for the same file (source
/// `replay:<basename>`, wall-clock origin from `started_at`, else 0), so that
/// at `max` speed the reports are byte-identical.
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
    // The session a recording describes, from the same function
    // `liftbuddy analyze` uses: one pipeline, byte-identical reports.
    let session = RecordedStreamAnalysis.session(
      for: header, sourceName: name, exercise: nil, loadKg: nil)
    self.hints = SourceHints(
      timing: .recorded(wallClockOrigin: session.wallClockOrigin),
      exercise: session.exercise, loadKg: session.loadKg, nominalRateHz: header.rateHz)
  }

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
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 1)
    defer { buffer.deallocate() }
    while header == nil {
      let n: Int
      do { n = try fd.read(into: buffer) } catch { throw error as? Errno ?? .ioError }
      if n == 0 {
        reader.finish { if case .header(let h) = $0 { header = h } }
        break
      }
      reader.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) {
        if case .header(let h) = $0 { header = h }
      }
    }
    return header ?? StreamHeader()
  }
}

/// The playback state behind one `events()` stream. An `AsyncStream`'s
/// unfolding closure is called by one consumer, one call at a time, so the
/// state is never touched concurrently.
private final class ReplayPlayer: @unchecked Sendable {
  private let path: String
  private let speed: ReplaySpeed
  private let loop: Bool
  private let nominalRateHz: Double

  private var fd: FileDescriptor?
  private var reader: StreamReader
  private var atEnd = false
  /// Rows read but not yet handed out (one chunk's worth at most).
  private var pending: [RecordedRow] = []
  private var pendingIndex = 0
  /// Added to the file's times: grows by a pass's length at each loop.
  private var timeOffset = 0.0
  private var lastT = 0.0
  /// Wall-clock instant of source time 0 for pacing (first row's time).
  private var paceOrigin: (instant: ContinuousClock.Instant, t: Double)?
  private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)

  init(path: String, speed: ReplaySpeed, loop: Bool, nominalRateHz: Double) {
    self.path = path
    self.speed = speed
    self.loop = loop
    self.nominalRateHz = nominalRateHz
    self.reader = StreamReader(defaultRateHz: nominalRateHz)
  }

  deinit {
    buffer.deallocate()
    try? fd?.close()
  }

  func next() async -> SourceEvent? {
    if Task.isCancelled { return nil }
    while pendingIndex >= pending.count {
      pending.removeAll(keepingCapacity: true)
      pendingIndex = 0
      if atEnd {
        guard loop, lastT > timeOffset || timeOffset == 0 else { return nil }
        // The next pass starts one nominal sample after this one ended.
        timeOffset = lastT + 1 / nominalRateHz
        atEnd = false
        reader = StreamReader(defaultRateHz: nominalRateHz)
        try? fd?.close()
        fd = nil
        return .status(.rewound)
      }
      fill()
    }
    return await pacedBatch()
  }

  /// Hands out the pending rows that are due now, sleeping until the first
  /// one is; at `max` speed, all of them.
  private func pacedBatch() async -> SourceEvent? {
    guard case .factor(let factor) = speed else {
      let batch = Array(pending[pendingIndex...])
      pendingIndex = pending.count
      return .rows(batch)
    }
    let first = pending[pendingIndex]
    if case .line(let t, _) = first {
      let origin = paceOrigin ?? (ContinuousClock.now, t)
      paceOrigin = origin
      let due = origin.instant + .seconds((t - origin.t) / factor)
      do { try await Task.sleep(until: due, tolerance: .milliseconds(2), clock: .continuous) } catch
      {
        return nil
      }
    }
    // Everything due within the next 5 ms goes in the same batch.
    let horizon = ContinuousClock.now + .milliseconds(5)
    var end = pendingIndex + 1
    while end < pending.count {
      if case .line(let t, _) = pending[end], let origin = paceOrigin,
        origin.instant + .seconds((t - origin.t) / factor) > horizon
      {
        break
      }
      end += 1
    }
    let batch = Array(pending[pendingIndex..<end])
    pendingIndex = end
    return .rows(batch)
  }

  /// Reads one chunk into `pending`, or marks the end of the file.
  private func fill() {
    if fd == nil {
      fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
      if fd == nil {
        atEnd = true
        loopGuard()
        return
      }
    }
    let n = (try? fd!.read(into: buffer)) ?? 0
    let offset = timeOffset
    if n == 0 {
      reader.finish { self.take($0, offset) }
      atEnd = true
    } else {
      reader.append(UnsafeRawBufferPointer(rebasing: buffer[0..<n])) { self.take($0, offset) }
    }
  }

  /// A file that vanished mid-loop ends the replay rather than spinning.
  private func loopGuard() {
    if lastT <= timeOffset { timeOffset = .infinity }
  }

  private func take(_ row: StreamRow, _ offset: Double) {
    switch row {
    case .header: break
    case .line(let t, let bytes):
      let shifted = t + offset
      lastT = shifted
      pending.append(.line(t: shifted, bytes: Array(bytes)))
    case .rejected(let why):
      pending.append(.rejected(why))
    }
  }
}
