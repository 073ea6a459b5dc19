import Foundation
import LiftBuddyCore
import Logging
import NIOPosix
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// The web view's parts against real files, real sockets and a real
/// pipeline (the browser-level checks are scripts/test-web.py).
@Suite(.serialized) struct WebViewTests {
  @Test func addressesAreNumericWithAPort() {
    #expect(WebAddress(parsing: "0.0.0.0:8080") == WebAddress(host: "0.0.0.0", port: 8080))
    #expect(WebAddress(parsing: "[::]:80") == WebAddress(host: "::", port: 80))
    #expect(WebAddress(parsing: "[::1]:0")?.description == "[::1]:0")
    for bad in [
      "8080", "localhost:8080", "1.2.3:80", "1.2.3.4:65536", "1.2.3.4:", ":80", "1.2.3.4:-1",
    ] {
      #expect(WebAddress(parsing: bad) == nil, "\(bad)")
    }
  }

  @Test func configKeysTurnTheWebViewOnAndOff() throws {
    var c = DaemonConfiguration()
    #expect(c.http == nil)
    try c.set("http", to: "127.0.0.1:8080")
    #expect(c.http == WebAddress(host: "127.0.0.1", port: 8080))
    try c.set("http", to: "off")
    #expect(c.http == nil)
    try c.set("http_pairing_code", to: "4711-rack")
    #expect(c.httpPairingCode?.value == "4711-rack")
    #expect(throws: ConfigurationError.self) { try c.set("http", to: "gym.local:80") }
    #expect(throws: ConfigurationError.self) { try c.set("http_pairing_code", to: "12") }
    #expect(throws: ConfigurationError.self) { try c.set("http_pairing_code", to: "has space") }
  }

  @Test func pairingCodesAreSixRandomDigitsAndMatchOnlyThemselves() {
    let codes = (0..<20).map { _ in PairingCode.random().value }
    #expect(codes.allSatisfy { $0.count == 6 && $0.allSatisfy(\.isNumber) })
    #expect(Set(codes).count > 1)
    let code = PairingCode("123456")!
    #expect(code.matches("123456"))
    for other in [nil, "", "12345", "1234567", "123457", "023456"] {
      #expect(!code.matches(other), "\(other ?? "nil")")
    }
  }

  @Test func theSiteIsItsRegularFilesOnlyAndNothingOutside() throws {
    let dir = ScratchDirectory()
    let site = dir.file("site")
    try FileManager.default.createDirectory(
      atPath: site + "/img", withIntermediateDirectories: true)
    try "<html>".write(toFile: site + "/index.html", atomically: true, encoding: .utf8)
    try "x".write(toFile: site + "/img/a.svg", atomically: true, encoding: .utf8)
    try "secret".write(toFile: dir.file("secret.html"), atomically: true, encoding: .utf8)
    #expect(symlink(dir.file("secret.html"), site + "/leak.html") == 0)
    #expect(symlink("/etc", site + "/etc") == 0)
    #expect(mkfifo(site + "/pipe.js", 0o600) == 0)
    var skipped: [String] = []
    let s = StaticSite(root: site, skipped: &skipped)
    #expect(Set(s.files.keys) == ["/index.html", "/img/a.svg"])
    #expect(s.file(at: "/").map { String(buffer: $0.body) } == "<html>")
    #expect(s.file(at: "/index.html")?.contentType == "text/html; charset=utf-8")
    for path in [
      "/leak.html", "/etc/passwd", "/../secret.html", "/%2e%2e/secret.html", "//index.html",
    ] {
      #expect(s.file(at: path) == nil, "\(path)")
    }
    #expect(skipped.count == 3, "\(skipped)")
  }

  @Test func historyListsTheReportFilesAndNothingElse() async throws {
    let dir = ScratchDirectory()
    let out = dir.file("lifts")
    let writer = try ReportFileWriter(directory: out, logger: Logger(label: "test"))
    var second = SinkTests.report(id: "20261122T040005Z-replay-a.lbs-1")
    second.startedAt = "2026-11-22T04:00:05.000Z"
    second.loadKg = 110
    writer.publish(.analyzer(.lift(second)))
    writer.publish(.analyzer(.lift(SinkTests.report())))
    await writer.drain()
    try "{not json".write(toFile: out + "/broken.json", atomically: true, encoding: .utf8)
    try SinkTests.report(id: "elsewhere").jsonLine().write(
      toFile: dir.file("elsewhere.json"), atomically: true, encoding: .utf8)
    #expect(symlink(dir.file("elsewhere.json"), out + "/elsewhere.json") == 0)

    let index = HistoryIndex(directory: out)
    let entries = index.listing()
    #expect(entries.map(\.id) == [SinkTests.report().id, second.id])
    #expect(entries.map(\.loadKg) == [100, 110])
    #expect(entries[0].meanVelocitiesMps == [0.419])
    #expect(index.rejectedCount == 1)
    let bytes = try #require(index.report(id: second.id))
    #expect(String(decoding: bytes, as: UTF8.self) == second.jsonLine() + "\n")
    for id in ["../lifts/" + second.id, "elsewhere", ".hidden", "a/b", "%2e%2e"] {
      #expect(index.report(id: id) == nil, "\(id)")
    }
    // A file rewritten in place is read again.
    second.loadKg = 120
    try (second.jsonLine() + "\n").write(
      toFile: out + "/" + ReportFileWriter.fileName(for: second.id), atomically: true,
      encoding: .utf8)
    #expect(index.listing().map(\.loadKg) == [100, 120])
  }

  /// A real server on the loopback, steering a real pipeline: the pairing
  /// code decides, and a page opened after a set sees that set's report.
  @Test func serverRefusesSteeringWithoutTheCodeAndSendsTheLastSetToANewPage() async throws {
    let dir = ScratchDirectory()
    let stream = Binaries.packageRoot.appendingPathComponent(
      "SampleStreams/squat-serial-typical.lbs"
    ).path
    let pipeline = Pipeline(
      source: try ReplaySource(path: stream), exercise: nil, loadKg: nil, sinks: [],
      logger: Logger(label: "test"))
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let server = WebServer(
      configuration: WebConfiguration(
        address: WebAddress(host: "127.0.0.1", port: 0), pairingCode: PairingCode("2468")!,
        siteRoot: Binaries.packageRoot.appendingPathComponent("Sources/LiftBuddyDaemon/Web/Static")
          .path,
        reportDirectory: dir.path, release: "test"),
      control: pipeline, logger: Logger(label: "test"), eventLoopGroup: group)
    let port = try await server.start().port!
    // Commands are answered by the pipeline's loop: it must be running.
    let running = Task { await pipeline.run() }
    defer { running.cancel() }

    let set = #"{"cmd":"set","exercise":"deadlift","load_kg":140}"#
    var reply = try TCPTestClient.request(port: port, post: "/api/command", body: set)
    #expect(reply.status == 403)
    #expect(
      reply.body == #"{"class":"error","message":"pairing code required (X-Pairing-Code)"}"# + "\n")
    try await Task.sleep(for: .milliseconds(1100))  // the lockout after a refusal
    reply = try TCPTestClient.request(
      port: port, post: "/api/command", body: set, headers: ["X-Pairing-Code: 2468"])
    #expect(reply.status == 200)
    #expect(reply.body == #"{"class":"ack","cmd":"set"}"# + "\n")
    let next = pipeline.nextSet()
    #expect(next.0 == .deadlift && next.1 == 140)

    reply = try TCPTestClient.request(port: port, get: "/")
    #expect(reply.status == 200 && reply.body.contains("<title>LiftBuddy</title>"))
    reply = try TCPTestClient.request(port: port, get: "/../Package.swift")
    #expect(reply.status == 404)

    // The last finished set reaches a page opened afterwards, as the socket encodes it.
    let report = SinkTests.report()
    server.publish(.analyzer(.lift(report)))
    let viewer = try TCPTestClient.webSocket(port: port)
    let first = try viewer.textMessage()
    #expect(first == String(buffer: WireEncoder.event(.analyzer(.lift(report)))).dropLast())
    #expect(await waitUntil(timeout: 10) { server.viewerCount == 1 })
    server.publish(.status(DaemonStatus(state: .connected, source: "replay:x", t: 1)))
    #expect(try viewer.textMessage().hasPrefix(#"{"class":"status","message":null"#))

    await server.shutdown()
    #expect(try viewer.closeCode() == 1001)  // going away: the page reconnects
    try await group.shutdownGracefully()
  }

  /// A page that stops answering pings (a phone gone from the Wi-Fi) is
  /// closed after two intervals; one that answers stays.
  @Test func aViewerThatDoesNotAnswerPingsIsClosed() async throws {
    let dir = ScratchDirectory()
    let stream = Binaries.packageRoot.appendingPathComponent(
      "SampleStreams/squat-serial-typical.lbs"
    ).path
    let pipeline = Pipeline(
      source: try ReplaySource(path: stream), exercise: nil, loadKg: nil, sinks: [],
      logger: Logger(label: "test"))
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    var configuration = WebConfiguration(
      address: WebAddress(host: "127.0.0.1", port: 0), pairingCode: PairingCode("2468")!,
      siteRoot: nil, reportDirectory: dir.path)
    configuration.viewerPingInterval = .milliseconds(200)
    let server = WebServer(
      configuration: configuration, control: pipeline, logger: Logger(label: "test"),
      eventLoopGroup: group)
    let port = try await server.start().port!

    let silent = try TCPTestClient.webSocket(port: port)
    let answering = try TCPTestClient.webSocket(port: port)
    #expect(await waitUntil(timeout: 10) { server.viewerCount == 2 })
    #expect(try silent.frame().opcode == 9)  // ping
    for _ in 0..<5 {
      let ping = try answering.frame()
      #expect(ping.opcode == 9)
      answering.sendFrame(opcode: 10, payload: ping.payload)
    }
    #expect((try? silent.frame()) == nil)  // closed, no more frames
    #expect(await waitUntil(timeout: 10) { server.viewerCount == 1 })
    await server.shutdown()
    try await group.shutdownGracefully()
  }
}
