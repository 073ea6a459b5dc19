import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension DaemonProcessTests {
  /// Every subscriber sees a set's reps before the lift report that counts
  /// them, however `end_set` commands interleave with the stream.
  ///
  /// Before issue 9 the pipeline was an actor whose every sink call was an
  /// `await` that left it: while a rep was on its way to the report writer
  /// (an actor hop), an `end_set` could run, and its `lift` reach the
  /// socket ahead of the rep. Here a client floods `end_set` while a replay
  /// runs, so that sets end at every point of a rep.
  @Test func aSetsRepsReachASubscriberBeforeItsLiftWhateverEndSetDoes() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    // 3 s of stillness at speed 12 before the first rep: the subscription
    // has to be in place (its ack read) before any rep can be published,
    // or a loaded machine makes the first set look unordered.
    stream.still(36)
    stream.reps(40, seconds: 1.2)
    stream.still(1)
    try stream.write(to: dir.file("flood.lbs"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("flood.lbs"))", "--speed", "12", "--output-dir",
        dir.file("lifts"), "--socket", dir.file("d.sock"),
      ], in: dir, name: "liftbuddyd")
    // The socket file appears at bind(), a moment before listen(): a
    // connect in between is refused, so wait for a connection, not a file.
    var connected: SocketTestClient? = nil
    #expect(
      await waitUntil(timeout: 5) {
        connected = try? SocketTestClient(path: dir.file("d.sock"), timeout: 5)
        return connected != nil
      }, "\(daemon.stderr)")
    let client = try #require(connected)
    _ = try client.line()
    try client.send(#"{"cmd":"watch","classes":["rep","lift"]}"# + "\n")
    #expect(try client.line().contains(#""class":"ack""#))
    let socketPath = dir.file("d.sock")
    let flood = Task.detached {
      let sender = try SocketTestClient(path: socketPath, timeout: 5)
      while !Task.isCancelled {
        try? sender.send(#"{"cmd":"end_set"}"# + "\n")
        try? await Task.sleep(for: .milliseconds(3))
      }
    }
    defer { flood.cancel() }
    let lines = try await SocketTest.offPool { try client.linesUntilEOF() }
    flood.cancel()
    await daemon.expectExit(within: 10)

    var repsSeen: [String: [Int]] = [:]
    var lifts = 0
    var repsInLifts = 0
    for line in lines {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      else { continue }
      switch object["class"] as? String {
      case "rep":
        let setID = try #require(object["set_id"] as? String)
        let index = try #require((object["rep"] as? [String: Any])?["index"] as? Int)
        repsSeen[setID, default: []].append(index)
      case "lift":
        let report = try #require(object["report"] as? [String: Any])
        let id = try #require(report["id"] as? String)
        let count = try #require(repCount(report))
        lifts += 1
        repsInLifts += count
        #expect(repsSeen[id] == Array(1...max(count, 1)).prefix(count).map { $0 }, "\(id)")
        repsSeen[id] = nil
      default: break
      }
    }
    // No rep arrived after its set's report.
    #expect(repsSeen.isEmpty, "\(repsSeen)")
    #expect(lifts >= 2)
    #expect(repsInLifts >= 30)
  }
}
