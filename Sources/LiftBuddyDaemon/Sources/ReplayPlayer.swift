import LiftBuddyCore
import SystemPackage

/// The playback state behind one replay stream: reads the file in chunks
/// and hands them on, at once (`max`) or in runs of rows at the pace of
/// their times.
///
/// An actor, because `AsyncStream(unfolding:)` wants a sendable closure;
/// it is only ever called by one consumer at a time.
actor ReplayPlayer {
  private let path: String
  private let speed: ReplaySpeed
  private let loop: Bool
  private let nominalRateHz: Double

  private var fd: FileDescriptor?
  private var atEnd = false
  /// Runs of rows read but not yet handed on, each with its due time on
  /// the recording's clock (nil: due at once).
  private var pending: [(bytes: [UInt8], t: Double?)] = []
  private var pendingIndex = 0
  /// The start of a row the previous chunk ended in the middle of.
  private var carry: [UInt8] = []
  /// Reads the rows' times for pacing only; the analysis reads the bytes.
  private var pacer: StreamReader
  /// Added to the file's times: grows by a pass's length at each loop.
  private var timeOffset = 0.0
  private var lastT = 0.0
  private var passHadBytes = false
  /// Wall-clock instant of a source time, for pacing (the first row's).
  private var paceOrigin: (instant: ContinuousClock.Instant, t: Double)?
  private var chunk = [UInt8](repeating: 0, count: 64 * 1024)

  /// Runs of rows due within this much of the first go out together.
  private static let batchWindowS = 0.005
  /// A row longer than this cannot be legal (see `LineFramer`): it is
  /// handed on unpaced, and the analysis counts it, rather than buffered.
  private static let maxCarry = 4 * LineFramer.defaultMaxLineLength

  init(path: String, speed: ReplaySpeed, loop: Bool, nominalRateHz: Double) {
    self.path = path
    self.speed = speed
    self.loop = loop
    self.nominalRateHz = nominalRateHz
    self.pacer = StreamReader(defaultRateHz: nominalRateHz)
  }

  deinit { try? fd?.close() }

  func next() async -> SourceEvent? {
    while !Task.isCancelled {
      if pendingIndex < pending.count {
        let run = pending[pendingIndex]
        pendingIndex += 1
        if let t = run.t, case .factor(let factor) = speed {
          let origin = paceOrigin ?? (ContinuousClock.now, t)
          paceOrigin = origin
          let due = origin.instant + .seconds((t - origin.t) / factor)
          do {
            try await Task.sleep(until: due, tolerance: .milliseconds(2), clock: .continuous)
          } catch { return nil }
        }
        return .recorded(run.bytes)
      }
      pending.removeAll(keepingCapacity: true)
      pendingIndex = 0
      if atEnd {
        // A file that vanished or is empty ends the replay rather than spin.
        guard loop, passHadBytes else { return nil }
        timeOffset = lastT + 1 / (pacer.header.rateHz ?? nominalRateHz)
        atEnd = false
        passHadBytes = false
        pacer = StreamReader(defaultRateHz: nominalRateHz)
        try? fd?.close()
        fd = nil
        return .status(.rewound)
      }
      fill()
    }
    return nil
  }

  /// Reads one chunk into `pending`, or marks the end of the file.
  private func fill() {
    if fd == nil {
      fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: .closeOnExec)
      if fd == nil {
        atEnd = true
        return
      }
    }
    let n = (try? chunk.withUnsafeMutableBytes { try fd!.read(into: $0) }) ?? 0
    if n == 0 {
      atEnd = true
      if !carry.isEmpty {
        pending.append((carry, nil))
        carry.removeAll()
      }
      return
    }
    passHadBytes = true
    guard case .factor = speed else {
      pending.append((Array(chunk[0..<n]), nil))
      return
    }
    split(chunk[0..<n])
  }

  /// Cuts a chunk into runs of whole rows, each timed by its first row.
  private func split(_ bytes: ArraySlice<UInt8>) {
    var start = bytes.startIndex
    var run: [UInt8] = []
    var runT: Double?
    while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
      var row = carry
      carry.removeAll(keepingCapacity: true)
      row += bytes[start...newline]
      start = newline + 1
      let t = time(of: row)
      if let t, let first = runT, t - first > Self.batchWindowS {
        pending.append((run, runT))
        run = []
        runT = nil
      }
      if runT == nil { runT = t }
      run += row
    }
    if !run.isEmpty { pending.append((run, runT)) }
    carry += bytes[start...]
    if carry.count > Self.maxCarry {
      pending.append((carry, nil))
      carry.removeAll()
    }
  }

  /// The time a row is read at, if it is a line.
  private func time(of row: [UInt8]) -> Double? {
    var t: Double?
    let offset = timeOffset
    row.withUnsafeBytes {
      pacer.append($0) { if case .line(let time, _) = $0 { t = time + offset } }
    }
    if let t { lastT = t }
    return t
  }
}
