import LiftBuddyCore
import SystemPackage

/// Prints events to standard output, one per line, for `liftbuddy replay`
/// and `record`: lift reports as their JSON line, the rest as short text.
public struct EventPrinter: EventSink {
  public var showSamples: Bool

  public init(showSamples: Bool = false) { self.showSamples = showSamples }

  public func publish(_ event: DaemonEvent) {
    guard let line = Self.text(event, showSamples: showSamples) else { return }
    // Standard output closed or full: a terminal tool has nowhere to say so.
    _ = try? Array((line + "\n").utf8).withUnsafeBytes {
      try FileDescriptor.standardOutput.writeAll($0)
    }
  }

  public static func text(_ event: DaemonEvent, showSamples: Bool) -> String? {
    switch event {
    case .analyzer(.setStarted(let s)):
      return "set \(s.setNumber) started at \(s.startS) s (\(s.exercise ?? "unknown exercise"))"
    case .analyzer(.rep(let r)):
      return
        "set \(r.setNumber) rep \(r.rep.index): mean \(r.rep.meanVelocityMps) m/s, peak \(r.rep.peakVelocityMps) m/s, \(r.rep.romCm) cm"
    case .analyzer(.provisionalRep(let r)):
      return
        "set \(r.setNumber) rep \(r.rep.index)?: mean \(r.rep.meanVelocityMps) m/s, peak \(r.rep.peakVelocityMps) m/s, \(r.rep.romCm) cm (provisional)"
    case .analyzer(.repWithdrawn(let w)):
      return "set \(w.setNumber) rep \(w.index) withdrawn (\(w.reason.rawValue))"
    case .analyzer(.lift(let report)):
      return report.jsonLine()
    case .status(let s):
      return "status: \(s.state.rawValue)\(s.message.map { " (\($0))" } ?? "")"
    case .sample(let live):
      guard showSamples else { return nil }
      return "sample t=\(live.t) height=\(live.heightCm.map { "\($0)" } ?? "-") cm"
    }
  }
}
