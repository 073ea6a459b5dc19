import Foundation
import LiftBuddyDaemon
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A line-oriented client of the daemon's Unix socket, on raw syscalls.
final class LineClient {
  private let fd: Int32
  private var buffer: [UInt8] = []

  init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw POSIXError(.EIO) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
    }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else {
      close(fd)
      throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
  }

  deinit { close(fd) }

  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }

  /// The next line, or nil at end of stream or after `timeout` seconds.
  func readLine(timeout: Double) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let nl = buffer.firstIndex(of: 10) {
        let line = String(decoding: buffer[..<nl], as: UTF8.self)
        buffer.removeSubrange(...nl)
        return line
      }
      let left = deadline.timeIntervalSinceNow
      guard left > 0 else { return nil }
      var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&p, 1, Int32(left * 1000)) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = read(fd, &chunk, chunk.count)
      guard n > 0 else { return nil }
      buffer += chunk[0..<n]
    }
  }

  /// Reads lines until one satisfies `match`; nil on timeout or EOF.
  func readLine(timeout: Double, where match: (String) -> Bool) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while let line = readLine(timeout: deadline.timeIntervalSinceNow) {
      if match(line) { return line }
    }
    return nil
  }
}

extension DaemonProcessTests {
  /// A socket client steers the live daemon (set, end_set) and gets the same
  /// report bytes as the file, then the final status at SIGTERM.
  @Test func socketClientSetsTheNextSetEndsItAndGetsTheReport() async throws {
    let rig = try LiveRig(restS: 30)
    #expect(await waitUntil(timeout: 5) { rig.connectedCount() == 1 }, "\(rig.daemon.stderr)")
    let client = try LineClient(path: rig.dir.file("d.sock"))
    #expect(client.readLine(timeout: 2)?.contains("\"class\":\"version\"") == true)
    client.send(#"{"cmd":"watch","classes":["lift","status"]}"#)
    #expect(client.readLine(timeout: 2) { $0.contains("\"class\":\"ack\"") } != nil)
    client.send(#"{"cmd":"set","exercise":"deadlift","load_kg":140}"#)
    #expect(client.readLine(timeout: 2) { $0.contains("\"class\":\"ack\"") } != nil)

    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(1.5)
    await PacedWriter(pty: rig.pty).play(stream.rows[...])
    client.send(#"{"cmd":"end_set"}"#)
    let lift = try #require(client.readLine(timeout: 3) { $0.hasPrefix("{\"class\":\"lift\"") })
    let files = jsonFiles(in: rig.out)
    try #require(files.count == 1)
    let file = try String(contentsOfFile: files[0], encoding: .utf8)
    #expect(lift == "{\"class\":\"lift\",\"report\":" + file.dropLast() + "}")
    let report = try reportObject(files[0])
    #expect(report["exercise"] as? String == "deadlift")
    #expect(report["load_kg"] as? Double == 140)
    #expect(repCount(report) == 2)

    rig.daemon.signal(SIGTERM)
    let last = client.readLine(timeout: 3) { $0.contains("\"state\":\"stopping\"") }
    #expect(last != nil)
    #expect(await rig.daemon.wait(timeout: 2) == 0)
    #expect(!FileManager.default.fileExists(atPath: rig.dir.file("d.sock")))
  }
}
