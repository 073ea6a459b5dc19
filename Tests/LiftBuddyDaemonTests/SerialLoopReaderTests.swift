import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import LiftBuddyDaemon

/// The serial port read on the consumer's event loop (`SerialLoopReader`):
/// the same events as the reading thread, handed on from that loop's own
/// thread, through a real pseudo-terminal.
@Suite struct SerialLoopReaderTests {
  final class Received: Sendable {
    let events = Mutex<[SourceEvent]>([])
    /// Whether every event was handed on from the event loop's thread.
    let allOnTheLoop = Mutex(true)
    let ended = Mutex(false)

    var bytes: [UInt8] {
      events.withLock { events in
        events.flatMap { event -> [UInt8] in if case .bytes(let b, _) = event { b } else { [] } }
      }
    }
    var statuses: [SourceStatus] {
      events.withLock { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    }
  }

  @Test func aPseudoTerminalIsReadOnTheLoopAndItsLossReported() async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let received = Received()
    let output = SourceOutput(
      eventLoop: loop,
      deliver: { event, receipt in
        let onLoop = loop.inEventLoop
        received.allOnTheLoop.withLock { $0 = $0 && onLoop }
        received.events.withLock { $0.append(event) }
        receipt?.signal()
        return true
      },
      end: { received.ended.withLock { $0 = true } })
    let pty = try PseudoTerminal()
    let source = SerialSource(path: pty.slavePath, backoff: Backoff(initial: 0.1, maximum: 0.2))
    source.start(clock: .startingNow(), output: output)

    #expect(
      await SocketTest.eventually(within: 30) {
        received.statuses.contains(.connected(detail: pty.slavePath))
      })
    try pty.write(Array("s:52\na:1:0\n".utf8))
    #expect(
      await SocketTest.eventually(within: 10) { received.bytes == Array("s:52\na:1:0\n".utf8) })
    pty.close()
    #expect(
      await SocketTest.eventually(within: 10) {
        received.statuses.contains { if case .lost = $0 { true } else { false } }
      })
    #expect(
      await SocketTest.eventually(within: 10) {
        received.statuses.contains { if case .retrying = $0 { true } else { false } }
      })
    // Closing the output stops the retries and ends the source.
    output.close()
    #expect(await SocketTest.eventually(within: 5) { received.ended.withLock { $0 } })
    let count = received.events.withLock { $0.count }
    try await Task.sleep(for: .milliseconds(500))
    #expect(received.events.withLock { $0.count } == count)
    #expect(received.allOnTheLoop.withLock { $0 })
    try await group.shutdownGracefully()
  }
}
