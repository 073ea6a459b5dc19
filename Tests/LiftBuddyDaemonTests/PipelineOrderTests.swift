import Foundation
import LiftBuddyCore
import Logging
import Synchronization
import Testing

@testable import LiftBuddyDaemon

/// The pipeline's one loop, in process: an `end_set` sent at the worst
/// moment (while a rep is being handed to the sinks) still reaches every
/// sink after that rep.
@Suite struct PipelineOrderTests {
  /// Collects what it is given.
  final class Collector: EventSink {
    let events = Mutex<[DaemonEvent]>([])
    func publish(_ event: DaemonEvent) { events.withLock { $0.append(event) } }
  }

  /// On each rep, asks the pipeline to end the set, and takes its time
  /// before returning, as a sink on a slow path would: before issue 9 the
  /// `end_set` ran in that gap and its report overtook the rep.
  final class EndSetAtEachRep: EventSink {
    let pipeline = Mutex<Pipeline?>(nil)
    func publish(_ event: DaemonEvent) {
      guard case .analyzer(.rep) = event, let pipeline = pipeline.withLock({ $0 }) else { return }
      Task { _ = await pipeline.perform(.endSet) }
      usleep(20_000)
    }
  }

  @Test func anEndSetSentWhileARepIsPublishedComesAfterIt() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(6, seconds: 1.2)
    stream.still(1)
    try stream.write(to: dir.file("s.lbs"))
    let trigger = EndSetAtEachRep()
    let collector = Collector()
    let source = try ReplaySource(path: dir.file("s.lbs"), speed: .factor(4))
    let pipeline = Pipeline(
      source: source, exercise: .squat, loadKg: 100, sinks: [trigger],
      options: .init(sampleRateHz: nil), logger: Logger(label: "test"))
    trigger.pipeline.withLock { $0 = pipeline }
    pipeline.add(sink: collector)
    await pipeline.run()

    var reps: [String: Int] = [:]
    var lifts = 0
    for event in collector.events.withLock({ $0 }) {
      switch event {
      case .analyzer(.rep(let r)): reps[r.setID, default: 0] += 1
      case .analyzer(.lift(let report)):
        lifts += 1
        #expect(reps[report.id] == report.summary.repCount, "\(report.id)")
        reps[report.id] = nil
      default: break
      }
    }
    #expect(reps.isEmpty, "reps after their report: \(reps)")
    #expect(lifts >= 5)
  }
}
