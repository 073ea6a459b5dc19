import Foundation
import LiftBuddyCore
import Logging
import Synchronization
import Testing

@testable import LiftBuddyDaemon

/// The loop's one input queue and the way sources reach it.
@Suite struct LoopInboxTests {
  /// Inputs from a thread (as the serial reader yields) and from tasks come
  /// out in the order they went in, each exactly once.
  @Test func inputsFromAThreadAndFromTasksComeOutInOrder() async {
    let inbox = LoopInbox()
    let thread = Thread {
      for i in 0..<2000 { inbox.yield(.source(.bytes([UInt8(i % 256)], at: Double(i)), nil)) }
      inbox.yield(.sourceEnded)
    }
    thread.start()
    var times: [Double] = []
    while let input = await inbox.next() {
      if case .source(.bytes(_, let t), _) = input { times.append(t) }
      if case .sourceEnded = input { break }
    }
    #expect(times == (0..<2000).map(Double.init))
  }

  @Test func aWaitingLoopReturnsNilWhenItsTaskIsCancelled() async {
    let inbox = LoopInbox()
    let loop = Task { await inbox.next() == nil }
    try? await Task.sleep(for: .milliseconds(50))
    loop.cancel()
    #expect(await loop.value)
    #expect(!inbox.yield(.tick), "a closed inbox takes no more")
  }

  @Test func drainClosesAndGivesBackWhatWasNeverTaken() {
    let inbox = LoopInbox()
    inbox.yield(.tick)
    inbox.yield(.sourceEnded)
    let left = inbox.drain()
    #expect(left.count == 2)
    #expect(!inbox.yield(.tick))
    #expect(inbox.drain().isEmpty)
  }

  /// A source that waits for each event to be applied (a replay at full
  /// speed) is told "not applied" when the loop ends first, rather than
  /// left waiting.
  @Test func aSourceWaitingOnAnEventTheLoopNeverTookIsReleased() async throws {
    let inbox = LoopInbox()
    let queued = Mutex(false)
    let output = SourceOutput(
      deliver: { event, receipt in
        defer { queued.withLock { $0 = true } }
        return inbox.yield(.source(event, receipt))
      },
      end: { inbox.yield(.sourceEnded) })
    let sender = Task { await output.send(.status(.rewound)) }
    #expect(await waitUntil(timeout: 10) { queued.withLock { $0 } })
    // The loop ends without taking it; the queued event is dropped.
    #expect(inbox.drain().count == 1)
    #expect(await sender.value == false)
    #expect(await output.send(.status(.rewound)) == false, "closed: refused at once")
  }

  /// The pipeline's own use: a replay at full speed runs to its end through
  /// `send`, every chunk applied in order (the reports match `analyze`).
  @Test func aReplayAtFullSpeedIsAppliedChunkByChunk() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(5, seconds: 1.2)
    stream.still(15)
    try stream.write(to: dir.file("s.lbs"))
    final class Lifts: EventSink {
      let reports = Mutex<[LiftReport]>([])
      func publish(_ event: DaemonEvent) {
        if case .analyzer(.lift(let r)) = event { reports.withLock { $0.append(r) } }
      }
    }
    let lifts = Lifts()
    let source = try ReplaySource(path: dir.file("s.lbs"), speed: .max)
    let pipeline = Pipeline(
      source: source, exercise: nil, loadKg: nil, sinks: [lifts],
      options: .init(sampleRateHz: nil, tick: nil), logger: Logger(label: "test"))
    await pipeline.run()
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("s.lbs"))))
    let expected = RecordedStreamAnalysis.reports(for: bytes, sourceName: source.name)
    #expect(lifts.reports.withLock { $0 } == expected)
    #expect(expected.count == 1)
  }
}
