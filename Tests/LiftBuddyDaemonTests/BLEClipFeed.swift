import BlueZ
import Foundation
import Synchronization

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// A BLE clip for the benchmarks, on the far end of a socketpair handed to
/// `BLESource` as its connector: it answers the GATT setup with
/// `DiscoveryBLESourceTests.answers` (a Nordic UART clip, ATT MTU 23), then
/// sends the stream's rows as Handle Value Notifications at their recorded
/// pace, one notification per 40 Hz sample (its `s:` and `a:` lines, at most
/// 20 bytes, as the clip's firmware packs them), and stays connected.
///
/// Why a socketpair: this host has no Bluetooth, and the daemon's part of the
/// BLE path (the ATT socket's reader, the hand-over to the pipeline) is the
/// same for any SOCK_SEQPACKET descriptor.
final class BLEClipFeed: Sendable {
  /// The notifications' payloads with the stream time each is due.
  let notifications: [(t: Double, bytes: [UInt8])]
  /// When each notification was handed to the socket (CLOCK_MONOTONIC
  /// nanoseconds, just before its send), in order.
  let sentAt = Mutex<[Int64]>([])
  private let feederThread = Mutex<pid_t?>(nil)
  private let finished = Mutex(false)

  init(rows: [SquatStream.Row]) {
    var out: [(t: Double, bytes: [UInt8])] = []
    for row in rows {
      let line = Array((row.line + "\n").utf8)
      if row.line.hasPrefix("a:"), let last = out.last, last.bytes.count + line.count <= 20 {
        out[out.count - 1].bytes += line
      } else {
        out.append((row.t, line))
      }
    }
    notifications = out
  }

  /// The feeding thread's id, once it plays (to leave it out of a CPU count).
  var threadID: pid_t? { feederThread.withLock { $0 } }
  /// True once every notification has been sent.
  var isFinished: Bool { finished.withLock { $0 } }

  /// The source's connector: one socketpair, served by a thread of its own.
  func connect() throws -> AttBearer {
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0 else {
      throw BluetoothError.system(.connect, errno: errno)
    }
    let server = AttBearer(fileDescriptor: fds[1])
    Thread { [self] in serve(server) }.start()
    return AttBearer(fileDescriptor: fds[0])
  }

  private func serve(_ bearer: AttBearer) {
    feederThread.withLock { $0 = ThreadPriority.currentThread() }
    while true {
      let received: [UInt8]?
      do { received = try bearer.receive(timeoutMilliseconds: 100) } catch { return }
      guard let request = received else { continue }
      guard let answer = DiscoveryBLESourceTests.answers[request] else {
        try? bearer.send([0x01, request[0], 0x00, 0x00, 0x06])  // Request Not Supported
        continue
      }
      try? bearer.send(answer)
      if request[0] == 0x12 { break }  // the CCCD write: notifications on
    }
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    let t0 = notifications.first?.t ?? 0
    for (t, bytes) in notifications {
      var due = start
      let offset = Int((t - t0) * 1e9) + Int(start.tv_nsec)
      due.tv_sec += offset / 1_000_000_000
      due.tv_nsec = offset % 1_000_000_000
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nil) == EINTR {}
      // Stamped before the send: a thread that the send wakes may run
      // before this one stamps anything after it.
      let now = SocketLatencyBenchmark.nowNanoseconds()
      sentAt.withLock { $0.append(now) }
      guard (try? bearer.send([0x1B, 0x03, 0x00] + bytes)) != nil else { return }
    }
    finished.withLock { $0 = true }
    // Stay connected until the client closes its end.
    while true {
      do { _ = try bearer.receive(timeoutMilliseconds: 100) } catch { return }
    }
  }

  /// A `BLESource` reading this clip.
  func source() -> BLESource {
    BLESource(
      target: BleTarget("ble:C0:11:22:33:44:55/random")!,
      backoff: Backoff(initial: 0.01, maximum: 0.02), transactionTimeout: .seconds(5),
      chooseAdapter: { _ in DiscoveryBLESourceTests.adapter },
      connect: { _, _, _ in try self.connect() })
  }
}
