/// Tunables of the analysis. Defaults are the measured best on the simulator
/// across seeds and noise levels (see BENCHMARKS.md); every one can be set
/// from the daemon's config file and the tool's flags.
public struct AnalyzerConfiguration: Codable, Sendable, Equatable {
  /// Which smoother turns despiked heights into a smooth trajectory.
  public enum Smoother: String, Codable, Sendable, CaseIterable {
    /// The clip's original method: the mean over a window in time.
    case movingAverage = "moving_average"
    /// A local quadratic least-squares fit (Savitzky–Golay on irregular
    /// samples): unbiased at turnarounds, where a moving average is not.
    case localQuadratic = "local_quadratic"
  }

  public var smoother: Smoother = .movingAverage
  /// Width of the smoothing window, in seconds of source time.
  public var smoothingWindowS: Double = 0.2
  /// A set ends when no rep has started for this long after the last one.
  public var setRestS: Double = 12
  /// Smallest rise that counts as a rep, overriding the exercise's default.
  public var minRomCm: Double? = nil
  /// The sonar's rate when the stream does not say (header `rate_hz`).
  public var nominalRateHz: Double = 20

  public init() {}
}

/// What the analyzer needs to know about where its lines come from.
public struct SessionInfo: Sendable, Equatable {
  /// As in the report: `serial:/dev/ttyUSB0`, `ble:…`, `replay:file.lbs`.
  public var source: String
  /// Unix time (seconds) of source time 0: the wall clock is the caller's,
  /// the core never reads one. Replays use the recording's `started_at`
  /// header, or 0 when it has none, so that a replay is deterministic.
  public var wallClockOrigin: Double
  /// Exercise and load of the next set; changeable between sets.
  public var exercise: Exercise?
  public var loadKg: Double?

  public init(source: String, wallClockOrigin: Double = 0, exercise: Exercise? = nil, loadKg: Double? = nil) {
    self.source = source
    self.wallClockOrigin = wallClockOrigin
    self.exercise = exercise
    self.loadKg = loadKg
  }
}
