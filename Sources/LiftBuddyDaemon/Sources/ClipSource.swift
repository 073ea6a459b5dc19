import LiftBuddyCore

#if canImport(Glibc)
  import Glibc
#else
  import Darwin
#endif

/// A driver for one kind of clip connection (gpsd's "driver per device"):
/// serial TTY, BLE, a recorded file. The pipeline knows only this protocol;
/// adding a transport means adding one type that conforms to it, with no
/// change to the analyzer, the pipeline or the sinks.
///
/// A source is a description of where to read (a path, an address).
/// `start(clock:output:)` starts reading and hands every event to `output`
/// until the output is closed (the consumer stopped) or, for a recorded
/// source, the stream is exhausted (`output.finish()`). A live source never
/// ends on its own: when the device goes away it reports `.status(.lost…)`,
/// then `.status(.retrying…)`, and goes on with `.status(.connected…)` once
/// the device is back. `events(clock:)` gives the same events as a stream
/// (for tools and tests), ending when the source does and stopping it as
/// soon as the consuming task is cancelled.
public protocol ClipSource: Sendable {
  /// The report's `source` string: `serial:/dev/ttyUSB0`, `ble:C8:FD:19:00:11:22`,
  /// `replay:squat-5x100.lbs`.
  var name: String { get }
  /// What the source knows about the session before its first line.
  var hints: SourceHints { get }
  /// Starts reading into `output` and returns at once. Live sources stamp
  /// bytes with `clock.now()` (seconds on the source clock); recorded
  /// sources carry their own times and may ignore the clock.
  func start(clock: SourceClock, output: SourceOutput)
  /// Starts reading; the stream's end is the source's.
  func events(clock: SourceClock) -> AsyncStream<SourceEvent>
}

extension ClipSource {
  public func events(clock: SourceClock) -> AsyncStream<SourceEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: SourceEvent.self, bufferingPolicy: .unbounded)
    let output = SourceOutput(
      deliver: { event, receipt in
        // No consumer tells this stream's events apart as applied; a source
        // that must not run ahead overrides this method (see ReplaySource).
        defer { receipt?.signal() }
        if case .terminated = continuation.yield(event) { return false }
        return true
      },
      end: { continuation.finish() })
    continuation.onTermination = { _ in output.close() }
    start(clock: clock, output: output)
    return stream
  }
}

/// What the pipeline receives from a source, in order.
public enum SourceEvent: Sendable, Equatable {
  /// Raw device bytes, as read, with their receive time on the source clock.
  /// The pipeline frames them into lines (a line takes the time of the chunk
  /// that completed it).
  case bytes([UInt8], at: Double)
  /// Bytes of a recorded stream (contract §2: header, timed rows), cut
  /// anywhere. The pipeline hands them to the core's
  /// `RecordedStreamAnalysis`, exactly as `liftbuddy analyze` does with a
  /// file, so a replay and an analysis of the same file are the same
  /// computation.
  case recorded([UInt8])
  /// Connection state changes. `.lost` closes the set in progress.
  case status(SourceStatus)
}

/// Connection state of a source, for the log, sd_notify's STATUS= and the
/// socket's `status` class.
public enum SourceStatus: Sendable, Equatable {
  /// The device is open and being read; `detail` names what was opened
  /// (e.g. the resolved device path).
  case connected(detail: String)
  /// The device went away (unplugged, EIO, EOF, hang-up) or could not be
  /// opened. The set in progress is closed with what it has.
  case lost(reason: String)
  /// Next attempt to open the device in `seconds`.
  case retrying(inSeconds: Double)
  /// A recorded source reached its end and starts over (`--loop`); its times
  /// keep growing, but the set in progress is closed.
  case rewound
}

/// How the session's times relate to the wall clock.
public enum SourceTiming: Sendable, Equatable {
  /// Times are receive times on the daemon's monotonic clock, from the moment
  /// the daemon started reading the source; the wall-clock origin is then.
  case live
  /// Times come from a recording; `wallClockOrigin` is its `started_at` as
  /// Unix time, or 0 when it has none, so that reports are deterministic.
  case recorded(wallClockOrigin: Double)
}

/// What a source knows about the session before its first line (a recorded
/// stream's header). Command-line and config values take precedence.
public struct SourceHints: Sendable, Equatable {
  public var timing: SourceTiming
  public var exercise: Exercise?
  public var loadKg: Double?
  /// The sonar rate the source declares (a recording's `rate_hz`): the
  /// analyzer's clock starts from it, exactly as `liftbuddy analyze` does.
  public var nominalRateHz: Double?

  public init(
    timing: SourceTiming, exercise: Exercise? = nil, loadKg: Double? = nil,
    nominalRateHz: Double? = nil
  ) {
    self.timing = timing
    self.exercise = exercise
    self.loadKg = loadKg
    self.nominalRateHz = nominalRateHz
  }
}

/// The source clock of a live session: monotonic seconds since the daemon
/// started reading the source, plus the Unix time of that instant. One value
/// is shared by the source (to stamp bytes) and the pipeline (to advance the
/// analyzer when the clip goes quiet), so both speak the same time.
public struct SourceClock: Sendable {
  public let origin: ContinuousClock.Instant
  /// Unix time (seconds) of source time 0.
  public let wallClockOrigin: Double

  public init(origin: ContinuousClock.Instant, wallClockOrigin: Double) {
    self.origin = origin
    self.wallClockOrigin = wallClockOrigin
  }

  /// Starts a clock now.
  public static func startingNow() -> SourceClock {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return SourceClock(
      origin: .now, wallClockOrigin: Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9)
  }

  /// Seconds on the source clock.
  public func now() -> Double {
    let d = origin.duration(to: .now)
    return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
  }
}
