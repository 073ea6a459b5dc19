import LiftBuddyCore
import Logging

/// The daemon's events, as log lines: sets, reps and reports at info, source
/// trouble at warning, samples not at all.
public struct LogSink: EventSink {
  private let logger: Logger

  public init(logger: Logger) { self.logger = logger }

  public func publish(_ event: DaemonEvent) {
    switch event {
    case .analyzer(.setStarted(let s)):
      logger.info(
        "set \(s.setNumber) started", metadata: ["id": "\(s.setID)", "t": "\(s.startS)"])
    case .analyzer(.rep(let r)):
      logger.info(
        "set \(r.setNumber) rep \(r.rep.index): \(r.rep.meanVelocityMps) m/s mean, \(r.rep.romCm) cm",
        metadata: ["id": "\(r.setID)"])
    case .analyzer(.provisionalRep(let r)):
      logger.debug(
        "set \(r.setNumber) rep \(r.rep.index)? (provisional): \(r.rep.meanVelocityMps) m/s mean",
        metadata: ["id": "\(r.setID)"])
    case .analyzer(.repWithdrawn(let w)):
      logger.info(
        "set \(w.setNumber) rep \(w.index) withdrawn: \(w.reason.rawValue)",
        metadata: ["id": "\(w.setID)"])
    case .analyzer(.lift(let report)):
      logger.info(
        "set ended with \(report.summary.repCount) reps", metadata: ["id": "\(report.id)"])
    case .status(let status):
      let text =
        "\(status.source): \(status.state.rawValue)\(status.message.map { " (\($0))" } ?? "")"
      switch status.state {
      case .disconnected: logger.warning("\(text)")
      case .retrying: logger.debug("\(text)")
      default: logger.notice("\(text)")
      }
    case .sample:
      break
    }
  }
}
