import Foundation
import LiftBuddyDaemon
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension DaemonProcessTests {
  /// A socket client steers the live daemon (set, end_set) and gets the same
  /// report bytes as the file, then the final status at SIGTERM.
  @Test func socketClientSetsTheNextSetEndsItAndGetsTheReport() async throws {
    let rig = try LiveRig(restS: 30)
    #expect(await waitUntil(timeout: 5) { rig.connectedCount() == 1 }, "\(rig.daemon.stderr)")
    // Reads throw after 3 s without a line: a missing reply fails the test.
    let client = try SocketTestClient(path: rig.dir.file("d.sock"), timeout: 10)
    #expect(try client.line().contains("\"class\":\"version\""))
    try client.send(#"{"cmd":"watch","classes":["lift","status"]}"# + "\n")
    _ = try client.line { $0.contains("\"class\":\"ack\"") }
    try client.send(#"{"cmd":"set","exercise":"deadlift","load_kg":140}"# + "\n")
    _ = try client.line { $0.contains("\"class\":\"ack\"") }

    var stream = SquatStream()
    stream.still(1)
    stream.reps(2)
    stream.still(1.5)
    await PacedWriter(pty: rig.pty).play(stream.rows[...])
    try client.send(#"{"cmd":"end_set"}"# + "\n")
    let lift = try client.line { $0.hasPrefix("{\"class\":\"lift\"") }
    // The file is written on the writer's own queue, which the socket does
    // not wait for: it may land just after the event.
    #expect(await waitUntil(timeout: 10) { jsonFiles(in: rig.out).count == 1 })
    let files = jsonFiles(in: rig.out)
    try #require(files.count == 1)
    let file = try String(contentsOfFile: files[0], encoding: .utf8)
    #expect(lift == "{\"class\":\"lift\",\"report\":" + file.dropLast() + "}")
    let report = try reportObject(files[0])
    #expect(report["exercise"] as? String == "deadlift")
    #expect(report["load_kg"] as? Double == 140)
    #expect(repCount(report) == 2)

    rig.daemon.signal(SIGTERM)
    _ = try client.line { $0.contains("\"state\":\"stopping\"") }
    await rig.daemon.expectExit(within: 10)
    #expect(!FileManager.default.fileExists(atPath: rig.dir.file("d.sock")))
  }
}
