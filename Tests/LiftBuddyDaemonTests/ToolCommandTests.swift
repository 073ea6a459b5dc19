import Foundation
import LiftBuddyDaemon
import NIOCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `liftbuddy record` and `liftbuddy replay`, the built binary, on the same
/// pipeline as the daemon.
extension DaemonProcessTests {
  @Test func recordCapturesALiveClipThatAnalyzeThenReads() async throws {
    let dir = ScratchDirectory()
    let pty = try PseudoTerminal()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(1.5)
    let recorder = try DaemonChild(
      Binaries.liftbuddy,
      [
        "record", "--source", "serial:\(pty.slavePath)", "--output", dir.file("rec.lbs"),
        "--duration", "16",
        "--exercise", "squat", "--load", "80",
      ], in: dir, name: "record")
    #expect(
      await waitUntil(timeout: 5) { recorder.stdout.contains("status: connected") },
      "\(recorder.stderr)")
    await PacedWriter(pty: pty).play(stream.rows[...])
    await recorder.expectExit(within: 14)
    #expect(recorder.stdout.contains("rep 2"), "\(recorder.stdout)")
    let text = try String(contentsOfFile: dir.file("rec.lbs"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines[0] == "# liftbuddy-stream 1")
    #expect(lines[1] == "# source: serial:\(pty.slavePath)")
    #expect(lines[2].hasPrefix("# started_at: 20") && lines[2].hasSuffix("Z"))
    #expect(lines[3] == "# exercise: squat")
    #expect(lines[4] == "# load_kg: 80")
    let rows = lines.dropFirst(5)
    #expect(rows.count == stream.rows.count)
    #expect(rows.allSatisfy { $0.split(separator: " ").count == 2 })

    let analyze = try DaemonChild(
      Binaries.liftbuddy, ["analyze", dir.file("rec.lbs")], in: dir, name: "analyze")
    await analyze.expectExit(within: 20)
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any],
      "\(analyze.stdout)")
    #expect(repCount(report) == 2)
    #expect(report["load_kg"] as? Double == 80)
  }

  @Test func replayPrintsEventsAndReportsAtMaxSpeed() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(2)
    stream.reps(3)
    stream.still(15)
    try stream.write(to: dir.file("s.lbs"))
    let replay = try DaemonChild(
      Binaries.liftbuddy, ["replay", dir.file("s.lbs"), "--speed", "max"], in: dir, name: "replay")
    await replay.expectExit(within: 20)
    let out = replay.stdout.split(separator: "\n")
    #expect(out.contains { $0.hasPrefix("set 1 started") })
    #expect(out.filter { $0.hasPrefix("set 1 rep ") }.count == 3)
    let analyze = try DaemonChild(
      Binaries.liftbuddy, ["analyze", dir.file("s.lbs")], in: dir, name: "analyze")
    await analyze.expectExit(within: 20)
    #expect(out.contains { $0 + "\n" == analyze.stdout })
  }

  @Test func analyzeNamesAnUnreadableFileInOneLineAndGoesOn() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(2)
    stream.reps(2)
    stream.still(15)
    try stream.write(to: dir.file("good.lbs"))
    let analyze = try DaemonChild(
      Binaries.liftbuddy,
      ["analyze", dir.file("missing.lbs"), dir.path, dir.file("good.lbs")], in: dir,
      name: "analyze")
    #expect(await analyze.wait(timeout: 20) == 1)
    let errors = analyze.stderr.split(separator: "\n")
    #expect(errors.count == 2, "\(analyze.stderr)")
    #expect(errors.first == "liftbuddy: \(dir.file("missing.lbs")): No such file or directory")
    #expect(errors.last == "liftbuddy: \(dir.path): Is a directory")
    // The readable file after them is still analysed.
    let report = try #require(
      try JSONSerialization.jsonObject(with: Data(analyze.stdout.utf8)) as? [String: Any])
    #expect(repCount(report) == 2)
  }

  @Test func replayToPtyFeedsTheDaemonLikeAClip() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(1)
    try stream.write(to: dir.file("s.lbs"))
    let feeder = try DaemonChild(
      Binaries.liftbuddy, ["replay", dir.file("s.lbs"), "--to-pty"], in: dir, name: "feeder")
    #expect(await waitUntil(timeout: 5) { feeder.stdout.contains("/dev/pts/") }, "\(feeder.stderr)")
    let path = try #require(
      feeder.stdout.split(separator: " ").first { $0.hasPrefix("/dev/pts/") }.map {
        String($0.prefix { $0 != ")" && $0 != "\n" })
      })
    let bytes = try await readSome(path: path, seconds: 2)
    #expect(String(decoding: bytes, as: UTF8.self).contains("s:140\na:1:0\n"))
    await feeder.expectExit(within: 10)
  }

  /// Reads a TTY for a while, as a clip's reader would.
  private func readSome(path: String, seconds: Double) async throws -> [UInt8] {
    let fd = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK)
    guard fd >= 0 else { throw POSIXError(.ENOENT) }
    defer { close(fd) }
    var all: [UInt8] = []
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let n = read(fd, &chunk, chunk.count)
      if n > 0 { all += chunk[0..<n] }
      try await Task.sleep(for: .milliseconds(50))
    }
    return all
  }
}

extension DaemonProcessTests {
  /// Today `liftbuddy watch` read a line of any length (294 MB for a
  /// 200 MB line); now it gives up past 1 MiB with a message.
  @Test func watchGivesUpOnALineLongerThanAnyTheDaemonSends() async throws {
    let dir = ScratchDirectory()
    let path = dir.file("fake.sock")
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    let bound = try SocketAddress(unixDomainSocketPath: path).withSockAddr {
      bind(listener, $0, socklen_t($1))
    }
    #expect(bound == 0 && listen(listener, 1) == 0)
    let watch = try DaemonChild(
      Binaries.liftbuddy, ["watch", "--socket", path], in: dir, name: "watch")
    let sent = try await SocketTest.offPool { () -> Int in
      let client = accept(listener, nil, nil)
      defer { close(client) }
      let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
      var total = 0
      // 64 MiB at most; the client hangs up long before.
      while total < 64 << 20 {
        let n = chunk.withUnsafeBytes {
          send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if n <= 0 { break }
        total += n
      }
      return total
    }
    #expect(await watch.wait(timeout: 10) == 1, "\(watch.stderr)")
    #expect(
      watch.stderr.contains("the server sent a line longer than 1048576 bytes; giving up"),
      "\(watch.stderr)")
    #expect(sent < 8 << 20)
  }
}
