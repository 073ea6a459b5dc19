import LiftBuddyCore

/// Runs the analyzer over a recorded stream one row at a time, as a live
/// source would feed it, and notes for every rep event the stream time of
/// the last row fed before the event came out: the rep's latency in stream
/// time is that minus the true lockout. Uses only what `analyze` uses
/// (`RecordedStreamAnalysis`), so the reports are the same bytes.
public enum TimedAnalysis {
  /// A rep event and when, in stream time, it was told.
  public struct TimedRep: Sendable {
    public var rep: RepReport
    public var streamTime: Double
  }

  public struct Outcome: Sendable {
    public var reports: [LiftReport]
    public var finalReps: [TimedRep]
    public var provisionalReps: [TimedRep]
  }

  public static func run(
    _ bytes: [UInt8], sourceName: String, configuration: AnalyzerConfiguration = .init()
  ) -> Outcome {
    var analysis = RecordedStreamAnalysis(sourceName: sourceName, configuration: configuration)
    // A second reader over the same bytes says which row was last fed: the
    // core's reader times raw captures by `rate_hz`, so this one does too.
    var clock = StreamReader(defaultRateHz: configuration.nominalRateHz)
    var now = 0.0
    var events: [AnalyzerEvent] = []
    var outcome = Outcome(reports: [], finalReps: [], provisionalReps: [])
    func collect() {
      for event in events {
        switch event {
        case .rep(let e): outcome.finalReps.append(TimedRep(rep: e.rep, streamTime: now))
        case .provisionalRep(let e):
          outcome.provisionalReps.append(TimedRep(rep: e.rep, streamTime: now))
        case .lift(let report): outcome.reports.append(report)
        default: break
        }
      }
      events.removeAll(keepingCapacity: true)
    }
    bytes.withUnsafeBytes { all in
      var start = 0
      while start < all.count {
        var end = start
        while end < all.count, all[end] != UInt8(ascii: "\n") { end += 1 }
        let row = UnsafeRawBufferPointer(rebasing: all[start..<min(end + 1, all.count)])
        clock.append(row) { if case .line(let t, _) = $0 { now = t } }
        analysis.append(row, into: &events)
        collect()
        start = end + 1
      }
    }
    clock.finish { if case .line(let t, _) = $0 { now = t } }
    analysis.finish(into: &events)
    collect()
    return outcome
  }
}
