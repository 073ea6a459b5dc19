import Foundation
import NIOCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The service manager's side of sd_notify(3): a datagram socket named by
/// `$NOTIFY_SOCKET`, as systemd sets it for a Type=notify unit.
final class NotifyReceiver {
  private let fd: Int32
  let path: String

  init(path: String) throws {
    self.path = path
    fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    let status = try SocketAddress(unixDomainSocketPath: path).withSockAddr {
      bind(fd, $0, socklen_t($1))
    }
    guard status == 0 else { throw POSIXError(.EADDRINUSE) }
  }

  deinit { close(fd) }

  /// Every message received within `seconds`.
  func receive(for seconds: Double) -> [String] {
    receive(until: { _ in false }, timeout: seconds)
  }

  /// Messages up to and including the first that `done` accepts, or all those
  /// received in `timeout` seconds. A bound, not a target: a process started
  /// in a parallel suite on two shared cores has taken seconds to say READY.
  func receive(until done: (String) -> Bool, timeout: Double = 20) -> [String] {
    var messages: [String] = []
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, Int32(deadline.timeIntervalSinceNow * 1000)) > 0 else { break }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let n = recv(fd, &buffer, buffer.count, 0)
      guard n > 0 else { continue }
      messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
      if done(messages.last!) { break }
    }
    return messages
  }
}

extension DaemonProcessTests {
  @Test func tellsSystemdReadyStatusWatchdogReloadingAndStopping() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(30)
    try stream.write(to: dir.file("still.lbs"))
    let receiver = try NotifyReceiver(path: dir.file("notify"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("still.lbs"))", "--output-dir", dir.file("lifts"),
        "--socket",
        dir.file("d.sock"),
      ], in: dir, name: "liftbuddyd",
      environment: ["NOTIFY_SOCKET": receiver.path, "WATCHDOG_USEC": "400000"])
    var first = receiver.receive(until: { $0.contains("READY=1") })
    let ready = try #require(
      first.firstIndex { $0.contains("READY=1") }, "\(first) \(daemon.stderr)")
    #expect(first[ready].contains("STATUS=reading replay:still.lbs"))
    // WATCHDOG_USEC 0.4 s: a ping every 0.2 s, so about 10 in 2 s.
    first += receiver.receive(for: 2)
    let pings = first[ready...].filter { $0 == "WATCHDOG=1" }.count
    #expect(pings >= 5, "\(first)")
    #expect(
      first.contains {
        $0.hasPrefix("STATUS=replay:still.lbs: connected")
          || $0.hasPrefix("STATUS=replay:still.lbs: starting")
      })
    daemon.signal(SIGHUP)
    var reloadingSeen = false
    let reload = receiver.receive(until: {
      if $0.hasPrefix("RELOADING=1") { reloadingSeen = true }
      return reloadingSeen && $0.hasPrefix("READY=1")
    }).filter { $0 != "WATCHDOG=1" }
    let reloading = try #require(
      reload.firstIndex { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") }, "\(reload)")
    #expect(reload[(reloading + 1)...].contains { $0.hasPrefix("READY=1") }, "\(reload)")
    daemon.signal(SIGTERM)
    let last = receiver.receive(until: { $0.contains("STOPPING=1") })
    #expect(last.contains { $0.contains("STOPPING=1") }, "\(last)")
    await daemon.expectExit(within: 10)
  }
}
