import LiftBuddyCore

/// Everything the daemon publishes to its sinks (the socket server, the
/// JSON-file writer, the log). One enum so every sink sees one ordered stream.
public enum DaemonEvent: Sendable, Equatable {
  /// Set started, rep confirmed, set report: straight from the analyzer.
  case analyzer(AnalyzerEvent)
  /// Source connected/lost, retrying, shutdown, counters.
  case status(DaemonStatus)
  /// The latest smoothed state, for live plots; sinks rate-limit it.
  case sample(LiveState)
}

/// The `status` class: what a subscriber needs to know about the daemon's
/// health without reading its log.
public struct DaemonStatus: Sendable, Equatable {
  public enum State: String, Sendable, Codable {
    case starting, connected, disconnected, retrying, stopping, reloaded
  }
  public var state: State
  /// e.g. `serial:/dev/ttyUSB0`.
  public var source: String
  /// Human-readable reason, e.g. "device unplugged (EIO); retrying in 2 s".
  public var message: String?
  /// Session totals so far.
  public var quality: QualityCounts
  /// Source-clock time of the status.
  public var t: Double
  /// Report files written, set aside and pending (nil where the daemon
  /// writes none).
  public var reports: ReportFileWriter.Counts?

  public init(
    state: State, source: String, message: String? = nil, quality: QualityCounts = .init(),
    t: Double, reports: ReportFileWriter.Counts? = nil
  ) {
    self.state = state
    self.source = source
    self.message = message
    self.quality = quality
    self.t = t
    self.reports = reports
  }

  /// Seconds for a message: `2`, `0.5`.
  static func format(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
  }
}

/// Commands a socket client may send that change what the daemon does.
public enum ControlCommand: Sendable, Equatable {
  /// Exercise and load for the next set (nil leaves a value unknown).
  case setNext(exercise: Exercise?, loadKg: Double?)
  /// End the set in progress now and emit its report.
  case endSet
  /// Start a new set now: ends the one in progress, if any.
  case startSet
}

/// Implemented by the daemon's pipeline; called by the socket server.
public protocol DaemonControl: Sendable {
  /// Returns a one-line error message when the command cannot be carried out.
  func perform(_ command: ControlCommand) async -> String?
  /// The current status, sent to a client on request.
  func currentStatus() async -> DaemonStatus
}
