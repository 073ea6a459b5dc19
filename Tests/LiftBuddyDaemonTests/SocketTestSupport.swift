import Foundation
import Glibc
import Logging
import NIOCore
import Testing

@testable import LiftBuddyCore
@testable import LiftBuddyDaemon

/// A client on a real Unix socket, with plain blocking calls and a receive
/// timeout, so a missing line fails the test instead of hanging it. Used by
/// one thread at a time; run its calls through `SocketTest.offPool` so they never block
/// Swift's cooperative threads (the server's daemon double runs there).
///
/// The timeout is a bound, not a target: the server answers `set`,
/// `start_set`, `end_set` and `status` from a task on the cooperative pool,
/// which has two threads here and, in the first 20 s of a full `swift test`,
/// is queued behind the CPU-bound analyzer suites (every small test of that
/// span reports 20 s). A 15-s bound failed CI once on that wait alone.
final class SocketTestClient: @unchecked Sendable {
  let fd: Int32
  private var pending: [UInt8] = []

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The descriptor is kept only once connected: a class whose init
  /// throws after its stored properties are set runs its `deinit`, which
  /// closed the descriptor a second time, by then perhaps another test's
  /// (a socket server's directory: "stat(...): Bad file descriptor").
  init(path: String, timeout: Double = 60) throws {
    let socketFD = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard socketFD >= 0 else { throw Failure(description: "socket: \(errno)") }
    let result: Int32
    do {
      result = try SocketAddress(unixDomainSocketPath: path).withSockAddr {
        connect(socketFD, $0, socklen_t($1))
      }
    } catch {
      close(socketFD)
      throw error
    }
    guard result == 0 else {
      let code = errno
      close(socketFD)
      throw Failure(description: "connect(\(path)): \(String(cString: strerror(code)))")
    }
    fd = socketFD
    setTimeout(timeout)
  }

  deinit { close(fd) }

  func setTimeout(_ seconds: Double) {
    var tv = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
  }

  func send(_ text: String) throws { try send(Array(text.utf8)) }

  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard n > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
      offset += n
    }
  }

  /// The next line without its newline; nil at end of stream.
  func readLine() throws -> String? {
    while true {
      if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n == 0 { return nil }
      guard n > 0 else {
        throw Failure(
          description: "recv: \(String(cString: strerror(errno))) (pending: \(pending.count) bytes)"
        )
      }
      pending.append(contentsOf: chunk[..<n])
    }
  }

  /// The next line, which must exist.
  func line() throws -> String {
    guard let line = try readLine() else {
      throw Failure(description: "end of stream, expected a line")
    }
    return line
  }

  /// The next line that satisfies `match`, skipping others; throws at the
  /// end of the stream or when a read times out.
  func line(where match: (String) -> Bool) throws -> String {
    while true {
      let next = try line()
      if match(next) { return next }
    }
  }

  /// Every remaining line up to the end of the stream.
  func linesUntilEOF() throws -> [String] {
    var lines: [String] = []
    while let line = try readLine() { lines.append(line) }
    return lines
  }
}

/// Helpers of the socket tests, in a namespace of their own: the test module
/// is shared with other engineers' suites.
enum SocketTest {
  /// Runs blocking socket calls on a thread of their own.
  static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }

  /// A count shared between a reading thread and the test.
  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
  }

  static func temporaryPath() -> String {
    "/tmp/lbsock-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
  }

  /// Polls until `condition` holds or `seconds` pass.
  static func eventually(within seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      if condition() { return true }
      try? await Task.sleep(for: .milliseconds(10))
    }
    return condition()
  }
}

/// A test double of the daemon's pipeline: records the commands it is given,
/// answers them as configured, and can publish through the server like the
/// real pipeline does.
final class SocketFakeDaemon: DaemonControl, @unchecked Sendable {
  private let lock = NSLock()
  private var _commands: [ControlCommand] = []
  private var _failure: String?
  let status: DaemonStatus

  init(status: DaemonStatus = SocketFixtures.status) { self.status = status }

  var commands: [ControlCommand] { lock.withLock { _commands } }

  /// The message `perform` answers with (nil: success).
  func fail(with message: String?) { lock.withLock { _failure = message } }

  func perform(_ command: ControlCommand) async -> String? {
    lock.withLock {
      _commands.append(command)
      return _failure
    }
  }

  func currentStatus() async -> DaemonStatus { status }
}

/// A running server on a fresh path, shut down by `stop`.
struct SocketServerUnderTest {
  let server: SocketServer
  let path: String
  let daemon: SocketFakeDaemon

  static func start(
    path: String = SocketTest.temporaryPath(), daemon: SocketFakeDaemon = SocketFakeDaemon(),
    _ configure: (inout SocketConfiguration) -> Void = { _ in }
  ) async throws -> SocketServerUnderTest {
    var configuration = SocketConfiguration(path: path)
    configure(&configuration)
    var logger = Logger(label: "socket-test")
    logger.logLevel = .error
    let server = SocketServer(configuration: configuration, control: daemon, logger: logger)
    try await server.start()
    return SocketServerUnderTest(server: server, path: path, daemon: daemon)
  }

  /// Connects, checks the greeting, and optionally subscribes.
  func connect(watch: String? = nil) async throws -> SocketTestClient {
    let path = self.path
    return try await SocketTest.offPool {
      let client = try SocketTestClient(path: path)
      let greeting = try client.line()
      guard greeting == SocketFixtures.versionLine else {
        throw SocketTestClient.Failure(description: "unexpected greeting \(greeting)")
      }
      if let watch {
        try client.send(watch + "\n")
        let ack = try client.line()
        guard ack.hasPrefix(#"{"class":"ack""#) else {
          throw SocketTestClient.Failure(description: "no ack: \(ack)")
        }
      }
      return client
    }
  }

  func stop(finalStatus: DaemonStatus? = nil) async {
    await server.shutdown(finalStatus: finalStatus)
    unlink(path)
  }
}

/// Fixed events, so the bytes on the wire are known in advance.
enum SocketFixtures {
  static let versionLine = #"{"class":"version","proto_major":1,"proto_minor":1,"release":"0.1.0"}"#

  static let status = DaemonStatus(
    state: .connected, source: "replay:squat-5x100.lbs", message: nil,
    quality: QualityCounts(lines: 1200, badLines: 2, spikesRemoved: 1, gaps: 0), t: 12.5,
    reports: .init(written: 3, setAside: 0, pending: 0))

  static func rep(_ index: Int, set: Int = 1, mean: Double = 0.62, loss: Double? = nil) -> RepReport
  {
    RepReport(
      index: index, concentricStartS: 10 + 2 * Double(index),
      concentricEndS: 10.5 + 2 * Double(index), romCm: 52.3,
      meanVelocityMps: mean, peakVelocityMps: 1.05, meanPropulsiveVelocityMps: 0.71,
      timeToPeakVelocityS: 0.21,
      peakAccelerationMps2: 6.4, eccentricDurationS: 1.1, stickingPointCm: nil, maxAbsPitchDeg: 3.2,
      maxAbsRollDeg: nil)
  }

  static func repEvent(_ index: Int, set: Int = 1, mean: Double = 0.62, loss: Double? = nil)
    -> DaemonEvent
  {
    .analyzer(
      .rep(
        RepEvent(
          setID: "20261121T041000Z-set\(set)", setNumber: set, exercise: "squat", loadKg: 100,
          rep: rep(index, set: set, mean: mean), velocityLossPct: loss)))
  }

  static func setStarted(_ set: Int = 1) -> DaemonEvent {
    .analyzer(
      .setStarted(
        SetStarted(
          setID: "20261121T041000Z-set\(set)", setNumber: set, startS: 10.5, exercise: "squat",
          loadKg: 100)))
  }

  static func report(set: Int = 1, reps: Int = 2) -> LiftReport {
    LiftReport(
      id: "20261121T041000Z-set\(set)", source: "replay:squat-5x100.lbs", exercise: "squat",
      loadKg: 100,
      startedAt: "2026-11-21T04:10:10Z", endedAt: "2026-11-21T04:10:25Z", startS: 10.5, endS: 25.0,
      reps: (1...max(reps, 1)).map { rep($0) }.prefix(reps).map { $0 },
      summary: SetSummary(
        repCount: reps, bestMeanVelocityMps: 0.62, velocityLossPct: 8.1, estimatedOneRepMaxKg: 131.5
      ),
      recommendations: [
        Recommendation(
          code: "velocity_loss", severity: .info, rep: nil,
          message: "Velocity loss 8.1 %: plenty left in the tank.")
      ],
      quality: QualityCounts(lines: 300, badLines: 0, spikesRemoved: 1, gaps: 0))
  }

  static func lift(set: Int = 1, reps: Int = 2) -> DaemonEvent {
    .analyzer(.lift(report(set: set, reps: reps)))
  }
}
