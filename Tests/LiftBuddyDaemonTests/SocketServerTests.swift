import Foundation
import Glibc
import NIOCore
import Testing

@testable import LiftBuddyCore
@testable import LiftBuddyDaemon

/// The server end to end, over real Unix sockets on this machine.
@Suite("Socket server", .serialized)
struct SocketServerTests {
  static let rep1Line =
    #"{"class":"rep","exercise":"squat","load_kg":100,"rep":{"concentric_end_s":12.5,"concentric_start_s":12,"#
    + #""eccentric_duration_s":1.1,"index":1,"max_abs_pitch_deg":3.2,"max_abs_roll_deg":null,"#
    + #""mean_propulsive_velocity_mps":0.71,"mean_velocity_mps":0.62,"peak_acceleration_mps2":6.4,"#
    + #""peak_velocity_mps":1.05,"rom_cm":52.3,"sticking_point_cm":null,"time_to_peak_velocity_s":0.21},"#
    + #""set":1,"set_id":"20261121T041000Z-set1","velocity_loss_pct":null}"#
  static let statusLine =
    #"{"class":"status","message":null,"quality":{"bad_lines":2,"gaps":0,"lines":1200,"spikes_removed":1},"#
    + #""reports":{"pending":0,"set_aside":0,"written":3},"#
    + #""source":"replay:squat-5x100.lbs","state":"connected","t":12.5}"#
  static let setLine =
    #"{"class":"set","exercise":"squat","load_kg":100,"set":1,"set_id":"20261121T041000Z-set1","start_s":10.5}"#

  @Test func greetsWithVersionOnConnect() async throws {
    let s = try await SocketServerUnderTest.start()
    let path = s.path
    let greeting = try await SocketTest.offPool { try SocketTestClient(path: path).line() }
    #expect(greeting == SocketFixtures.versionLine)
    await s.stop()
  }

  @Test func watcherReceivesEventsInOrderWithExactJSON() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect()
    let ack = try await SocketTest.offPool {
      try client.send(#"{"cmd":"watch"}"# + "\n")
      return try client.line()
    }
    #expect(
      ack
        == #"{"class":"ack","classes":["lift","rep","rep_provisional","rep_withdrawn","sample","set","status"],"cmd":"watch"}"#
    )

    s.server.publish(SocketFixtures.setStarted())
    s.server.publish(SocketFixtures.repEvent(1))
    s.server.publish(SocketFixtures.lift())
    s.server.publish(.status(SocketFixtures.status))
    let lines = try await SocketTest.offPool { try (0..<4).map { _ in try client.line() } }

    #expect(lines[0] == Self.setLine)
    #expect(lines[1] == Self.rep1Line)
    #expect(lines[2] == #"{"class":"lift","report":"# + SocketFixtures.report().jsonLine() + "}")
    #expect(lines[3] == Self.statusLine)
    // The report inside decodes back to the very report published.
    struct LiftObject: Decodable { var report: LiftReport }
    let decoded = try JSONDecoder().decode(LiftObject.self, from: Data(lines[2].utf8))
    #expect(decoded.report == SocketFixtures.report())
    await s.stop()
  }

  @Test func classesNarrowAndEnableFalseUnsubscribes() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect()
    let ack = try await SocketTest.offPool {
      try client.send(#"{"cmd":"watch","classes":["rep","lift"]}"# + "\n")
      return try client.line()
    }
    #expect(ack == #"{"class":"ack","classes":["lift","rep"],"cmd":"watch"}"#)

    // Publishing is ordered, so a subscribed event after unsubscribed ones
    // proves those were considered and skipped.
    var state = LiveState()
    state.t = 1
    s.server.publish(.status(SocketFixtures.status))
    s.server.publish(SocketFixtures.setStarted())
    s.server.publish(.sample(state))
    s.server.publish(SocketFixtures.repEvent(1))
    s.server.publish(.status(SocketFixtures.status))
    s.server.publish(SocketFixtures.lift())
    let narrowed = try await SocketTest.offPool { [try client.line(), try client.line()] }
    #expect(
      narrowed == [
        Self.rep1Line, #"{"class":"lift","report":"# + SocketFixtures.report().jsonLine() + "}",
      ])

    // A second client on the same event loop (the server's own group has
    // one) is the witness that the next event has been handed out.
    let witness = try await s.connect(watch: #"{"cmd":"watch","classes":["rep"]}"#)
    let off = try await SocketTest.offPool {
      try client.send(#"{"cmd":"watch","enable":false}"# + "\n")
      return try client.line()
    }
    #expect(off == #"{"class":"ack","classes":[],"cmd":"watch"}"#)
    s.server.publish(SocketFixtures.repEvent(1))
    let seen = try await SocketTest.offPool { try witness.line() }
    #expect(seen == Self.rep1Line)
    let after = try await SocketTest.offPool {
      try client.send(#"{"cmd":"version"}"# + "\n")
      return try client.line()
    }
    #expect(after == SocketFixtures.versionLine)
    await s.stop()
  }

  static let badCommands: [(line: String, error: String)] = [
    ("hello", "not a JSON object: commands are one JSON object per line"),
    (#"{"cmd":"watch""#, "not a JSON object: commands are one JSON object per line"),
    (#"["watch"]"#, #"a command must be a JSON object, e.g. {\"cmd\":\"watch\"}"#),
    (#"{"command":"watch"}"#, #"missing \"cmd\""#),
    (#"{"cmd":5}"#, #"\"cmd\" must be a string"#),
    (
      #"{"cmd":"dance"}"#,
      #"unknown command \"dance\"; known: end_set, set, start_set, status, version, watch"#
    ),
    (#"{"cmd":"watch","enable":"yes"}"#, #"\"enable\" must be true or false"#),
    (#"{"cmd":"watch","enable":1}"#, #"\"enable\" must be true or false"#),
    (#"{"cmd":"watch","classes":"rep"}"#, #"\"classes\" must be an array of class names"#),
    (
      #"{"cmd":"watch","classes":["rep","gps"]}"#,
      #"unknown class \"gps\"; known: lift, rep, rep_provisional, rep_withdrawn, sample, set, status"#
    ),
    (#"{"cmd":"watch","clases":["rep"]}"#, #"unknown field \"clases\" for watch"#),
    (
      #"{"cmd":"set","exercise":"curl"}"#,
      #"unknown exercise \"curl\"; known: bench_press, deadlift, overhead_press, squat"#
    ),
    (#"{"cmd":"set","exercise":7}"#, #"\"exercise\" must be a string or null"#),
    (#"{"cmd":"set","load_kg":"100"}"#, #"\"load_kg\" must be a number or null"#),
    (#"{"cmd":"set","load_kg":-5}"#, #"\"load_kg\" must be from 0 to 1000 (kg), or null"#),
    // Today: accepted, and the report then said 1RM 0.
    (#"{"cmd":"set","load_kg":1.7e308}"#, #"\"load_kg\" must be from 0 to 1000 (kg), or null"#),
    (#"{"cmd":"set","load_kg":1000.5}"#, #"\"load_kg\" must be from 0 to 1000 (kg), or null"#),
    (#"{"cmd":"status","verbose":true}"#, #"unknown field \"verbose\" for status"#),
    ("{\"cmd\":\"ver\u{0}sion\"}", "NUL byte in command"),
  ]

  @Test func everyBadCommandGetsAnErrorAndTheConnectionStillAnswers() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect()
    for bad in Self.badCommands {
      let replies = try await SocketTest.offPool {
        try client.send(bad.line + "\n" + #"{"cmd":"version"}"# + "\n")
        return [try client.line(), try client.line()]
      }
      #expect(
        replies == [
          #"{"class":"error","message":""# + bad.error + #""}"#, SocketFixtures.versionLine,
        ],
        "\(bad.line)")
    }
    // Invalid UTF-8 is said to be that, even inside "cmd".
    let utf8 = try await SocketTest.offPool {
      try client.send([0x7B, 0xFF, 0xFE, 0x7D, 0x0A])
      try client.send(Array(#"{"cmd":"st"#.utf8) + [0xFF] + Array("tus\"}\n".utf8))
      return [try client.line(), try client.line()]
    }
    #expect(
      utf8
        == Array(repeating: #"{"class":"error","message":"command is not valid UTF-8"}"#, count: 2))
    #expect(s.daemon.commands.isEmpty)
    await s.stop()
  }

  @Test func overlongLineIsReportedAtOnceAndDiscardedUpToItsNewline() async throws {
    let s = try await SocketServerUnderTest.start { $0.maxCommandBytes = 64 }
    let client = try await s.connect()
    let expected =
      #"{"class":"error","message":"command longer than 64 bytes; discarded up to its newline"}"#
    // Reported before the line even ends.
    let early = try await SocketTest.offPool {
      try client.send(#"{"cmd":"version","x":""# + String(repeating: "x", count: 200))
      return try client.line()
    }
    #expect(early == expected)
    // The rest of that line, however long, is dropped; the next line counts.
    let after = try await SocketTest.offPool {
      try client.send(
        String(repeating: "y", count: 10_000) + #""}"# + "\n" + #"{"cmd":"version"}"# + "\n")
      return try client.line()
    }
    #expect(after == SocketFixtures.versionLine)
    // Exactly at the bound is fine; one byte over is not.
    let bound = try await SocketTest.offPool {
      let exact = #"{"cmd":"version"}"# + String(repeating: " ", count: 64 - 17)
      try client.send(exact + "\r\n" + exact + " \n")
      return [try client.line(), try client.line()]
    }
    #expect(bound == [SocketFixtures.versionLine, expected])
    await s.stop()
  }

  @Test func halfAnObjectStallsNobodyElse() async throws {
    let s = try await SocketServerUnderTest.start()
    let stalled = try await s.connect(watch: #"{"cmd":"watch","classes":["rep"]}"#)
    try await SocketTest.offPool { try stalled.send(#"{"cmd":"sta"#) }
    let other = try await s.connect(watch: #"{"cmd":"watch","classes":["rep"]}"#)
    let status = try await SocketTest.offPool {
      try other.send(#"{"cmd":"status"}"# + "\n")
      return try other.line()
    }
    #expect(status == Self.statusLine)
    s.server.publish(SocketFixtures.repEvent(1))
    let rep = try await SocketTest.offPool { try other.line() }
    #expect(rep == Self.rep1Line)
    // The half-sent command, once finished, is answered after the event it
    // was waiting behind.
    let finished = try await SocketTest.offPool {
      try stalled.send(#"tus"}"# + "\n")
      return [try stalled.line(), try stalled.line()]
    }
    #expect(finished == [Self.rep1Line, Self.statusLine])
    await s.stop()
  }

  @Test func clientThatNeverFinishesALineIsDisconnectedAfterTheTimeout() async throws {
    let s = try await SocketServerUnderTest.start { $0.partialCommandTimeout = .milliseconds(300) }
    let client = try await s.connect()
    let lines = try await SocketTest.offPool {
      try client.send(#"{"cmd":"#)
      return try client.linesUntilEOF()
    }
    #expect(
      lines == [#"{"class":"error","message":"command not finished within 0.3 s; disconnecting"}"#])
    await s.stop()
  }

  @Test func clientThatStopsSendingIsAnsweredThenClosed() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect()
    // As `printf '{"cmd":"status"}' | socat - UNIX-CONNECT:…` does: no
    // final newline, then end of input.
    let lines = try await SocketTest.offPool {
      try client.send(#"{"cmd":"version"}"# + "\n" + #"{"cmd":"status"}"#)
      shutdown(client.fd, Int32(SHUT_WR))
      return try client.linesUntilEOF()
    }
    #expect(lines == [SocketFixtures.versionLine, Self.statusLine])
    await s.stop()
  }

  @Test func watcherThatStopsSendingKeepsReceiving() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect(watch: #"{"cmd":"watch","classes":["rep"]}"#)
    _ = try await SocketTest.offPool { shutdown(client.fd, Int32(SHUT_WR)) }
    try await Task.sleep(for: .milliseconds(50))
    s.server.publish(SocketFixtures.repEvent(1))
    let rep = try await SocketTest.offPool { try client.line() }
    #expect(rep == Self.rep1Line)
    await s.stop()
  }

  @Test func setStartSetEndSetReachTheDaemonAndAreAcknowledged() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect()
    let replies = try await SocketTest.offPool {
      try client.send(
        #"{"cmd":"set","exercise":"bench_press","load_kg":82.5}"# + "\n" + #"{"cmd":"start_set"}"#
          + "\n"
          + #"{"cmd":"end_set"}"# + "\n" + #"{"cmd":"set","exercise":null}"# + "\n")
      return try (0..<4).map { _ in try client.line() }
    }
    #expect(
      replies == [
        #"{"class":"ack","cmd":"set"}"#, #"{"class":"ack","cmd":"start_set"}"#,
        #"{"class":"ack","cmd":"end_set"}"#,
        #"{"class":"ack","cmd":"set"}"#,
      ])
    #expect(
      s.daemon.commands == [
        .setNext(exercise: .benchPress, loadKg: 82.5), .startSet, .endSet,
        .setNext(exercise: nil, loadKg: nil),
      ])

    s.daemon.fail(with: "no set in progress")
    let refused = try await SocketTest.offPool {
      try client.send(#"{"cmd":"end_set"}"# + "\n")
      return try client.line()
    }
    #expect(refused == #"{"class":"error","message":"no set in progress"}"#)
    await s.stop()
  }

  @Test func slowSubscriberIsDroppedWhileANormalOneGetsEveryEvent() async throws {
    let s = try await SocketServerUnderTest.start { $0.clientBufferBytes = 64 * 1024 }
    let stuck = try await s.connect(watch: #"{"cmd":"watch"}"#)
    let normal = try await s.connect(watch: #"{"cmd":"watch"}"#)
    #expect(s.server.connectedClients == 2)
    let count = 3000
    let progress = SocketTest.Counter()
    let reader = Task {
      try await SocketTest.offPool {
        try (0..<count).map { _ in
          defer { progress.increment() }
          return try normal.line()
        }
      }
    }
    // The normal subscriber keeps up by construction: never more than 100
    // events (about 45 KB) behind, however loaded the machine. The stuck one
    // never reads, so its backlog grows until it is dropped.
    for i in 1...count {
      s.server.publish(SocketFixtures.repEvent(i))
      while i - progress.value > 100 { try await Task.sleep(for: .milliseconds(1)) }
    }
    let received = try await reader.value
    #expect(received.count == count)
    let indexes = received.map { line -> Int in
      struct Rep: Decodable {
        struct R: Decodable { var index: Int }
        var rep: R
      }
      return (try? JSONDecoder().decode(Rep.self, from: Data(line.utf8)).rep.index) ?? -1
    }
    #expect(indexes == Array(1...count))
    #expect(await SocketTest.eventually { s.server.connectedClients == 1 })
    // What the stuck client had been sent before it was dropped is still
    // readable, then the stream ends: it was disconnected.
    let leftovers = try await SocketTest.offPool { try stuck.linesUntilEOF() }
    #expect(leftovers.count < count)
    await s.stop()
  }

  @Test func twoHundredSubscribersAllReceiveAnEvent() async throws {
    let s = try await SocketServerUnderTest.start()
    let path = s.path
    let clients = try await SocketTest.offPool {
      try (0..<200).map { _ in
        let client = try SocketTestClient(path: path)
        try client.send(#"{"cmd":"watch","classes":["rep"]}"# + "\n")
        return client
      }
    }
    let acks = try await SocketTest.offPool { try clients.map { [try $0.line(), try $0.line()] } }
    #expect(
      acks.allSatisfy {
        $0 == [SocketFixtures.versionLine, #"{"class":"ack","classes":["rep"],"cmd":"watch"}"#]
      })
    #expect(s.server.connectedClients == 200)
    s.server.publish(SocketFixtures.repEvent(1))
    let reps = try await SocketTest.offPool { try clients.map { try $0.line() } }
    #expect(reps.count == 200)
    #expect(reps.allSatisfy { $0 == Self.rep1Line })
    await s.stop()
  }

  @Test func connectionsBeyondMaxClientsAreToldAndClosed() async throws {
    let s = try await SocketServerUnderTest.start { $0.maxClients = 2 }
    // Clients that have earned their slot with a command: nobody to evict.
    let a = try await s.connect(watch: #"{"cmd":"watch"}"#)
    let b = try await s.connect(watch: #"{"cmd":"watch"}"#)
    let path = s.path
    let third = try await SocketTest.offPool { try SocketTestClient(path: path).linesUntilEOF() }
    #expect(third == [#"{"class":"error","message":"too many clients (2)"}"#])
    _ = (a, b)
    await s.stop()
  }

  // MARK: Clients that hold a slot must earn it (issue 9, item 3)

  /// Today 256 connections that never send a byte lock everyone out with
  /// `too many clients` until they leave; now a newcomer takes the oldest
  /// idle one's slot.
  @Test func twoHundredFiftySixIdleConnectionsDoNotLockOutAWatcher() async throws {
    let s = try await SocketServerUnderTest.start { $0.idleTimeout = nil }
    let path = s.path
    let idle = try await SocketTest.offPool {
      try (0..<256).map { _ in try SocketTestClient(path: path) }
    }
    #expect(await SocketTest.eventually { s.server.connectedClients == 256 })
    let watcher = try await s.connect(watch: #"{"cmd":"watch"}"#)
    // The oldest idle connection made room, and was told why.
    let evicted = try await SocketTest.offPool { try idle[0].linesUntilEOF() }
    #expect(
      evicted.last
        == #"{"class":"error","message":"closed to make room: no command since connecting"}"#)
    #expect(s.server.connectedClients == 256)
    s.server.publish(SocketFixtures.repEvent(1))
    #expect(try await SocketTest.offPool { try watcher.line() }.hasPrefix(#"{"class":"rep""#))
    await s.stop()
  }

  @Test func aConnectionThatSendsNoCommandIsClosedAfterTheIdleTimeout() async throws {
    let s = try await SocketServerUnderTest.start { $0.idleTimeout = .milliseconds(300) }
    let path = s.path
    let started = ContinuousClock.now
    let lines = try await SocketTest.offPool { try SocketTestClient(path: path).linesUntilEOF() }
    #expect(
      lines == [
        SocketFixtures.versionLine,
        #"{"class":"error","message":"no command within 0.3 s of connecting; disconnecting"}"#,
      ])
    #expect(ContinuousClock.now - started >= .milliseconds(250))
    // One that asked for its status in time stays.
    let talker = try await s.connect()
    try talker.send(#"{"cmd":"status"}"# + "\n")
    _ = try await SocketTest.offPool { try talker.line() }
    try await Task.sleep(for: .milliseconds(500))
    #expect(s.server.connectedClients == 1)
    await s.stop()
  }

  @Test func onePeerUserHoldsAtMostItsShareOfTheSlots() async throws {
    let s = try await SocketServerUnderTest.start {
      $0.maxClientsPerUser = 3
      $0.exemptUsers = []
    }
    let held = try await (0..<3).asyncMap { _ in try await s.connect(watch: #"{"cmd":"watch"}"#) }
    let path = s.path
    let fourth = try await SocketTest.offPool { try SocketTestClient(path: path).linesUntilEOF() }
    #expect(
      fourth == [#"{"class":"error","message":"too many connections from uid \#(geteuid()) (3)"}"#])
    _ = held
    await s.stop()
  }

  @Test func samplesAreRateLimitedPerClient() async throws {
    let s = try await SocketServerUnderTest.start { $0.sampleMaxHz = 10 }
    let client = try await s.connect(watch: #"{"cmd":"watch","classes":["sample","rep"]}"#)
    for i in 0..<50 {
      var state = LiveState()
      state.t = Double(i) / 100
      state.heightCm = 80
      s.server.publish(.sample(state))
    }
    s.server.publish(SocketFixtures.repEvent(1))
    let burst = try await SocketTest.offPool { [try client.line(), try client.line()] }
    #expect(
      burst == [
        #"{"class":"sample","height_cm":80,"pitch_deg":null,"roll_deg":null,"t":0,"velocity_mps":null}"#,
        Self.rep1Line,
      ])
    try await Task.sleep(for: .milliseconds(150))
    var later = LiveState()
    later.t = 2
    s.server.publish(.sample(later))
    let next = try await SocketTest.offPool { try client.line() }
    #expect(
      next
        == #"{"class":"sample","height_cm":null,"pitch_deg":null,"roll_deg":null,"t":2,"velocity_mps":null}"#
    )
    await s.stop()
  }

  @Test func shutdownSendsFinalStatusToEveryClientAndRemovesTheSocket() async throws {
    let s = try await SocketServerUnderTest.start()
    let watcher = try await s.connect(watch: #"{"cmd":"watch","classes":["rep","status"]}"#)
    let idle = try await s.connect()
    var final = SocketFixtures.status
    final.state = .stopping
    final.message = "SIGTERM"
    // As the daemon does: the pipeline publishes its stopping status, then
    // the same status is the final one. A watcher must not get it twice.
    s.server.publish(.status(final))
    await s.server.shutdown(finalStatus: final)
    let expected =
      #"{"class":"status","message":"SIGTERM","quality":{"bad_lines":2,"gaps":0,"lines":1200,"spikes_removed":1},"#
      + #""reports":{"pending":0,"set_aside":0,"written":3},"#
      + #""source":"replay:squat-5x100.lbs","state":"stopping","t":12.5}"#
    let watcherLines = try await SocketTest.offPool { try watcher.linesUntilEOF() }
    let idleLines = try await SocketTest.offPool { try idle.linesUntilEOF() }
    #expect(watcherLines == [expected])
    #expect(idleLines == [expected])
    #expect(access(s.path, F_OK) != 0)
  }

  @Test func shutdownWithoutFinalStatusClosesAtOnce() async throws {
    let s = try await SocketServerUnderTest.start()
    let client = try await s.connect(watch: #"{"cmd":"watch"}"#)
    let started = ContinuousClock.now
    await s.server.shutdown(finalStatus: nil)
    let elapsed = ContinuousClock.now - started
    let lines = try await SocketTest.offPool { try client.linesUntilEOF() }
    #expect(lines.isEmpty)
    // Well under the half second a client that does not read is given.
    #expect(elapsed < .milliseconds(400))
    #expect(access(s.path, F_OK) != 0)
  }
}

/// The socket file: stale leftovers, foreign files, permissions.
@Suite("Socket file", .serialized)
struct SocketFileTests {
  @Test func staleSocketFromACrashIsReplaced() async throws {
    let path = SocketTest.temporaryPath()
    try leaveStaleSocket(at: path)
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
    let s = try await SocketServerUnderTest.start(path: path)
    let greeting = try await SocketTest.offPool { try SocketTestClient(path: path).line() }
    #expect(greeting == SocketFixtures.versionLine)
    await s.stop()
  }

  @Test func liveSocketIsNotStolen() async throws {
    let first = try await SocketServerUnderTest.start()
    await #expect(throws: SocketServerError.inUse(path: first.path)) {
      _ = try await SocketServerUnderTest.start(path: first.path)
    }
    let greeting = try await SocketTest.offPool { [path = first.path] in
      try SocketTestClient(path: path).line()
    }
    #expect(greeting == SocketFixtures.versionLine)
    await first.stop()
  }

  @Test func pathThatIsNotASocketIsRefused() async throws {
    let path = SocketTest.temporaryPath()
    try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    await #expect(throws: SocketServerError.notASocket(path: path)) {
      _ = try await SocketServerUnderTest.start(path: path)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "precious")
    #expect(
      SocketServerError.notASocket(path: path).description
        == "\(path) exists and is not a socket; refusing to replace it (remove it or choose another path)"
    )
  }

  @Test(arguments: [mode_t(0o660), 0o600])
  func modeIsApplied(mode: mode_t) async throws {
    let s = try await SocketServerUnderTest.start { $0.mode = mode }
    var info = stat()
    #expect(lstat(s.path, &info) == 0)
    #expect(info.st_mode & 0o777 == mode)
    await s.stop()
  }

  /// Needs a group other than the test's own to prove the chown happened.
  static let otherGroup: (name: String, gid: gid_t)? = ["daemon", "nogroup"].lazy.compactMap {
    name -> (name: String, gid: gid_t)? in
    guard let entry = getgrnam(name), entry.pointee.gr_gid != getegid() else { return nil }
    return (name, entry.pointee.gr_gid)
  }.first

  @Test(
    .enabled(
      if: otherGroup != nil && geteuid() == 0, "needs root and a group named daemon or nogroup"))
  func groupIsApplied() async throws {
    let group = try #require(Self.otherGroup)
    let s = try await SocketServerUnderTest.start { $0.group = group.name }
    var info = stat()
    #expect(lstat(s.path, &info) == 0)
    #expect(info.st_gid == group.gid)
    #expect(info.st_mode & 0o777 == 0o660)
    await s.stop()
  }

  @Test func unknownGroupIsAnErrorAndLeavesNoSocketBehind() async throws {
    let path = SocketTest.temporaryPath()
    await #expect(throws: SocketServerError.unknownGroup("no-such-group-lb")) {
      _ = try await SocketServerUnderTest.start(path: path) { $0.group = "no-such-group-lb" }
    }
    #expect(access(path, F_OK) != 0)
  }

  // MARK: Attacks on the socket's directory (issue 9, item 2)

  /// Today a stale socket of another user was removed silently, and the
  /// mode and group were then set by path, following whatever had been
  /// planted there.
  @Test(.enabled(if: geteuid() == 0, "needs root to make another user's socket"))
  func anotherUsersStaleSocketIsRefusedWithItsOwner() async throws {
    let path = SocketTest.temporaryPath()
    try leaveStaleSocket(at: path)
    defer { unlink(path) }
    #expect(lchown(path, 65534, 65534) == 0)
    await #expect(throws: SocketServerError.foreignSocket(path: path, owner: 65534)) {
      _ = try await SocketServerUnderTest.start(path: path)
    }
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_uid == 65534)
    #expect(
      SocketServerError.foreignSocket(path: path, owner: 65534).description.contains(
        "is a socket of uid 65534, not ours; refusing to remove it"))
  }

  @Test func aDirectoryOthersMayWriteIsRefusedUnlessSticky() async throws {
    let dir = ScratchDirectory()
    let open = dir.file("open")
    #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
    let path = open + "/d.sock"
    await #expect(
      throws: SocketServerError.unsafeDirectory(path: open, mode: 0o777, owner: geteuid())
    ) {
      _ = try await SocketServerUnderTest.start(path: path)
    }
    #expect(access(path, F_OK) != 0)
    // Sticky, as /tmp is: nobody can remove or rename our socket there.
    #expect(chmod(open, 0o1777) == 0)
    let s = try await SocketServerUnderTest.start(path: path)
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
    await s.stop()
  }

  /// The socket appears at its path with its final mode, never with the
  /// umask's: it is linked in from a private directory after chmod. And no
  /// private directory is left behind.
  @Test func theSocketAppearsWithItsModeAndLeavesNoTemporaryBehind() async throws {
    let dir = ScratchDirectory()
    let path = dir.file("d.sock")
    let old = umask(0)
    defer { umask(old) }
    let s = try await SocketServerUnderTest.start(path: path) { $0.mode = 0o600 }
    var info = stat()
    #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path)
    #expect(entries == ["d.sock"])
    await s.stop()
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
  }

  /// Today: `unixDomainSocketPathTooLong`.
  @Test func aPathTooLongIsSaidSoWithTheLimit() async throws {
    let path = "/tmp/" + String(repeating: "x", count: 120) + ".sock"
    let error = await #expect(throws: SocketServerError.self) {
      _ = try await SocketServerUnderTest.start(path: path)
    }
    #expect(
      error?.description
        == "socket path \(path) is \(path.utf8.count) bytes; a Unix socket path can have at most 107"
    )
  }

  /// Binds a socket and closes it without unlinking, as a crash would.
  private func leaveStaleSocket(at path: String) throws {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    let result = try SocketAddress(unixDomainSocketPath: path).withSockAddr {
      bind(fd, $0, socklen_t($1))
    }
    guard result == 0 else { throw SocketTestClient.Failure(description: "bind: \(errno)") }
  }
}

extension Sequence {
  fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
    var out: [T] = []
    for element in self { out.append(try await transform(element)) }
    return out
  }
}
