import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

extension DaemonProcessTests {
  /// `liftbuddyd --http` prints the page's URL and a fresh pairing code at
  /// start, and `systemctl status` (the STATUS= line) shows the same code,
  /// which then steers the daemon.
  @Test func webViewPrintsItsPairingCodeAndSystemdStatusShowsIt() async throws {
    let dir = ScratchDirectory()
    var stream = SquatStream()
    stream.still(30)
    try stream.write(to: dir.file("still.lbs"))
    let receiver = try NotifyReceiver(path: dir.file("notify"))
    let daemon = try DaemonChild(
      Binaries.liftbuddyd,
      [
        "--source", "replay:\(dir.file("still.lbs"))", "--output-dir", dir.file("lifts"),
        "--socket", dir.file("d.sock"), "--http", "127.0.0.1:0",
      ], in: dir, name: "liftbuddyd", environment: ["NOTIFY_SOCKET": receiver.path])
    let messages = receiver.receive(until: { $0.contains("web pairing code") })
    let log = daemon.stderr
    let line = try #require(
      log.split(separator: "\n").first { $0.contains("web view on http://127.0.0.1:") }, "\(log)")
    let words = line.split(separator: " ")
    let code = String(try #require(words.last))
    #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(line)")
    let url = try #require(words.first { $0.hasPrefix("http://") })
    let port = try #require(Int(url.split(separator: ":").last!.prefix { $0.isNumber }))
    #expect(
      messages.contains { $0.hasPrefix("STATUS=") && $0.hasSuffix("; web pairing code \(code)") },
      "\(messages)")

    let set = #"{"cmd":"set","exercise":"squat","load_kg":60}"#
    let reply = try TCPTestClient.request(
      port: port, post: "/api/command", body: set, headers: ["X-Pairing-Code: \(code)"])
    #expect(reply.status == 200 && reply.body.contains(#""class":"ack""#), "\(reply)")
    daemon.signal(SIGTERM)
    await daemon.expectExit(within: 10)
  }
}
