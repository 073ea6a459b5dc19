import Foundation
import Synchronization
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// Brokers that are not what they should be, as real servers the test
/// starts: one that accepts the TCP connection and never answers, one that
/// speaks something else, a TLS listener where a plain one was. The daemon
/// (the built binary) goes on analysing and writing reports at its pace,
/// says what is wrong, and connects once a real broker is there.
@Suite(
  .serialized,
  .enabled(if: MQTTTestBroker.isAvailable, "mosquitto is not installed (scripts/setup.sh)"))
struct MQTTRobustnessTests {
  /// A listener that never accepts: the kernel completes the handshake, and
  /// nothing is ever said. The report is written, the log says there is no
  /// answer, and the replay keeps its pace: it ends with that of a daemon
  /// without MQTT started beside it (the same machine load on both).
  @Test func brokerThatAcceptsAndNeverAnswers() async throws {
    let dir = ScratchDirectory()
    let server = try TestTCPServer(answer: nil)
    var stream = SquatStream()
    stream.still(1)
    stream.reps(3)
    stream.still(4)
    try stream.write(to: dir.file("set.lbs"))
    func daemon(_ name: String, _ extra: [String]) throws -> DaemonChild {
      try DaemonChild(
        Binaries.liftbuddyd,
        [
          "--source", "replay:\(dir.file("set.lbs"))", "--speed", "1", "--output-dir",
          dir.file("lifts-\(name)"), "--socket", dir.file("\(name).sock"),
        ] + extra, in: dir, name: name)
    }
    let started = Date()
    let hung = try daemon("hung", ["--mqtt", "127.0.0.1:\(server.port)", "--rack", "r10"])
    let plain = try daemon("plain", [])
    await plain.expectExit(within: 60)
    let plainElapsed = Date().timeIntervalSince(started)
    await hung.expectExit(within: 60)
    let hungElapsed = Date().timeIntervalSince(started)
    // At most the 1 s the sink may wait for the broker at exit (it does
    // not, knowing it away), plus scheduling.
    #expect(
      hungElapsed - plainElapsed < 2,
      "with the hung broker \(hungElapsed) s, without \(plainElapsed) s")
    #expect(jsonFiles(in: dir.file("lifts-hung")).count == 1)
    #expect(
      try jsonFiles(in: dir.file("lifts-hung")).map {
        try Data(contentsOf: URL(fileURLWithPath: $0))
      }
        == jsonFiles(in: dir.file("lifts-plain")).map {
          try Data(contentsOf: URL(fileURLWithPath: $0))
        })
    #expect(
      hung.stderr.contains(
        "MQTT broker 127.0.0.1:\(server.port): no MQTT answer within 5 s: is an MQTT broker listening there, and does it expect TLS (we connect without)?"
      ), "\(hung.stderr)")
    #expect(
      hung.stderr.contains("MQTT: stopping with 1 lift reports the broker has not acknowledged"))
    server.stop()
  }

  /// Something that answers with HTTP where a broker should be, then a
  /// real broker on the same port: the daemon says what is wrong, keeps
  /// retrying (restarting libmosquitto's thread when the error ended it),
  /// and publishes once the broker is there.
  ///
  /// Both ways such a server may hang up: at once (the client's CONNECT
  /// then meets a reset), or after reading the CONNECT, with a plain close
  /// (libmosquitto then reports the end of file inside the "packet" as
  /// `MOSQ_ERR_ERRNO` with errno 0, which was logged as "Success").
  @Test(arguments: [false, true])
  func somethingElseOnThePortThenABroker(readsFirst: Bool) async throws {
    let dir = ScratchDirectory()
    let server = try TestTCPServer(
      answer: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8), readsFirst: readsFirst)
    var stream = SquatStream()
    stream.still(60)
    try stream.write(to: dir.file("still.lbs"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("still.lbs"))", "--output-dir", dir.file("lifts"),
        "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(server.port)", "--rack", "r11",
      ], in: dir, name: "liftbuddyd")
    let said = await daemon.waitFor(timeout: 20) {
      daemon.stderr.contains(
        "MQTT broker 127.0.0.1:\(server.port): the other end closed the connection without an MQTT answer: is it an MQTT broker on that port, and does it expect TLS (we connect without)?"
      )
    }
    #expect(said, "\(daemon.stderr)")
    #expect(server.accepted >= 1)
    server.stop()
    let broker = try await MQTTTestBroker(in: dir, port: server.port)
    let connected = await daemon.waitFor(timeout: 40) {
      daemon.stderr.contains("MQTT: connected to 127.0.0.1:\(server.port) as liftbuddyd-r11")
    }
    #expect(connected, "\(daemon.stderr)")
    #expect(daemon.isRunning)
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
    await broker.stop()
  }

  /// TLS where a plain listener is: the handshake fails, which ends
  /// libmosquitto's thread for good; the sink restarts it, and connects
  /// when a TLS listener takes the port.
  @Test(.enabled(if: TestPKI.isAvailable, "openssl is not installed (scripts/setup.sh)"))
  func libraryThreadRestartsAfterATLSFailure() async throws {
    let dir = ScratchDirectory()
    let pki = try TestPKI(in: dir, clients: [])
    let plain = try await MQTTTestBroker(in: dir)
    var stream = SquatStream()
    stream.still(60)
    try stream.write(to: dir.file("still.lbs"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("still.lbs"))", "--output-dir", dir.file("lifts"),
        "--socket", dir.file("d.sock"), "--mqtt", "127.0.0.1:\(plain.port)", "--rack", "r12",
        "--mqtt-ca-file", pki.ca,
      ], in: dir, name: "liftbuddyd")
    // Told by libmosquitto's callback, or (when its first handshake never
    // gets going) by the sink's own 5 s without an answer.
    let said = await daemon.waitFor(timeout: 20) {
      daemon.stderr.contains("MQTT broker 127.0.0.1:\(plain.port): the TLS connection failed")
        || daemon.stderr.contains("MQTT broker 127.0.0.1:\(plain.port): no MQTT answer")
    }
    #expect(said, "\(daemon.stderr)")
    await plain.stop()
    let tls = try await MQTTTestBroker(
      in: dir, port: plain.port,
      settings: MQTTSecurityTests.keepUser
        + "certfile \(pki.serverCert)\nkeyfile \(pki.serverKey)\nallow_anonymous true\n")
    let connected = await daemon.waitFor(timeout: 40) {
      daemon.stderr.contains("MQTT: connected to 127.0.0.1:\(plain.port) as liftbuddyd-r12")
    }
    #expect(connected, "\(daemon.stderr)")
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
    await tls.stop()
  }
}

/// A loopback TCP server the test controls: with `answer` nil it never
/// accepts (connections wait in its backlog, unanswered); otherwise it
/// accepts, writes `answer` and closes, on a thread of its own. With
/// `readsFirst` it reads the client's first bytes before answering, then
/// closes its side with a FIN and waits for the client's close (no reset).
final class TestTCPServer: Sendable {
  let port: Int
  private let fd: Int32
  private let count = Mutex(0)

  /// Connections accepted so far.
  var accepted: Int { count.withLock { $0 } }

  /// Its `accept` thread has returned (and closed the listener), if it has one.
  private let done = DispatchSemaphore(value: 0)
  private let threaded: Bool

  init(answer: [UInt8]?, readsFirst: Bool = false) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    // Accepted connections inherit SO_REUSEADDR: without it, one the client
    // has not closed yet (FIN_WAIT after our close, under load) keeps the
    // broker that takes the port next from binding (EADDRINUSE).
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    let port = freeLoopbackPort()
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let ok = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    try #require(ok && listen(fd, 16) == 0, "cannot listen on \(port): \(errno)")
    self.fd = fd
    self.port = port
    threaded = answer != nil
    guard let answer else { return }
    Thread.detachNewThread { [self] in
      while true {
        let client = accept(fd, nil, nil)
        if client < 0 { break }
        count.withLock { $0 += 1 }
        var buffer = [UInt8](repeating: 0, count: 4096)
        if readsFirst { _ = read(client, &buffer, buffer.count) }
        _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        if readsFirst {
          shutdown(client, Int32(SHUT_WR))
          while read(client, &buffer, buffer.count) > 0 {}
        }
        close(client)
      }
      // Closed here, not by `stop`, so that the descriptor's number is not
      // reused (by another test's socket) while this thread may still use it.
      close(fd)
      done.signal()
    }
  }

  /// Stops listening: `shutdown` makes the thread's `accept` fail.
  func stop() {
    shutdown(fd, Int32(SHUT_RDWR))
    if threaded { done.wait() } else { close(fd) }
  }
}
