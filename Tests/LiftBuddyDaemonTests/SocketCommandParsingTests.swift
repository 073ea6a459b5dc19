import Testing

@testable import LiftBuddyCore
@testable import LiftBuddyDaemon

/// The channel-free layers: framing and parsing, as the fuzz target drives them.
@Suite("Socket command framing and parsing")
struct SocketCommandParsingTests {
  private func frames(_ chunks: [String], max: Int = 16) -> [CommandFramer.Frame] {
    var framer = CommandFramer(maxLineBytes: max)
    var out: [CommandFramer.Frame] = []
    for chunk in chunks { framer.feed(Array(chunk.utf8)) { out.append($0) } }
    return out
  }

  private func line(_ s: String) -> CommandFramer.Frame { .line(Array(s.utf8)) }

  @Test func linesSplitAcrossReadsAndCRLFAndBlankLines() {
    #expect(
      frames(["ab", "c\nde", "f\r", "\n", "\n  \n\r\n", "g\n"]) == [
        line("abc"), line("def"), line("g"),
      ])
  }

  @Test func unterminatedLineIsHeldNotEmitted() {
    var framer = CommandFramer(maxLineBytes: 16)
    var out: [CommandFramer.Frame] = []
    framer.feed(Array("abc".utf8)) { out.append($0) }
    #expect(out.isEmpty)
    #expect(framer.hasPartialLine)
    framer.feed(Array("\n".utf8)) { out.append($0) }
    #expect(out == [line("abc")])
    #expect(!framer.hasPartialLine)
  }

  @Test func finishEmitsALastLineWithoutNewlineButNotAnOverlongOne() {
    var framer = CommandFramer(maxLineBytes: 16)
    var out: [CommandFramer.Frame] = []
    framer.feed(Array("abc\ndef".utf8)) { out.append($0) }
    framer.finish { out.append($0) }
    #expect(out == [line("abc"), line("def")])
    var overlong = CommandFramer(maxLineBytes: 4)
    out = []
    overlong.feed(Array("abcdefgh".utf8)) { out.append($0) }
    overlong.finish { out.append($0) }
    #expect(out == [.overlong])
    #expect(!overlong.hasPartialLine)
  }

  @Test func boundIsExactAndOverlongIsReportedOnceThenDiscarded() {
    let sixteen = String(repeating: "a", count: 16)
    #expect(frames([sixteen + "\n"]) == [line(sixteen)])
    #expect(frames([sixteen + "\r\n"]) == [line(sixteen)])
    #expect(frames([sixteen + "b\n", "ok\n"]) == [.overlong, line("ok")])
    // Reported while the line is still open, and only once however long it goes.
    #expect(
      frames([sixteen, "bc", String(repeating: "x", count: 100), "y\nok\n"]) == [
        .overlong, line("ok"),
      ])
    var framer = CommandFramer(maxLineBytes: 16)
    var out: [CommandFramer.Frame] = []
    framer.feed(Array((sixteen + "bc").utf8)) { out.append($0) }
    #expect(out == [.overlong])
  }

  @Test func validCommandsParse() {
    let cases: [(String, ClientCommand)] = [
      (#"{"cmd":"watch"}"#, .watch(enable: true, classes: EventClass.allCases)),
      (#"{"cmd":"watch","classes":["rep","lift"]}"#, .watch(enable: true, classes: [.rep, .lift])),
      (#"{"cmd":"watch","enable":false}"#, .watch(enable: false, classes: EventClass.allCases)),
      (
        #" { "cmd" : "set", "exercise":"squat", "load_kg":100 } "#,
        .set(exercise: .squat, loadKg: 100)
      ),
      (#"{"cmd":"set","exercise":null,"load_kg":0}"#, .set(exercise: nil, loadKg: 0)),
      (#"{"cmd":"set"}"#, .set(exercise: nil, loadKg: nil)),
      (#"{"load_kg":62.5,"cmd":"set"}"#, .set(exercise: nil, loadKg: 62.5)),
      (#"{"cmd":"start_set"}"#, .startSet),
      (#"{"cmd":"end_set"}"#, .endSet),
      (#"{"cmd":"status"}"#, .status),
      (#"{"cmd":"version"}"#, .version),
    ]
    for (text, command) in cases {
      #expect(CommandParser.parse(Array(text.utf8)) == .success(command), "\(text)")
    }
  }

  @Test func commandsRoundTripThroughTheirClientEncoding() {
    let commands: [ClientCommand] = [
      .watch(enable: true, classes: [.rep, .lift]), .watch(enable: false, classes: [.sample]),
      .set(exercise: .deadlift, loadKg: 182.5), .set(exercise: nil, loadKg: nil), .startSet,
      .endSet, .status,
      .version,
    ]
    for command in commands {
      #expect(CommandParser.parse(Array(command.jsonLine().utf8)) == .success(command))
    }
    #expect(
      ClientCommand.watch(enable: true, classes: [.rep]).jsonLine()
        == #"{"classes":["rep"],"cmd":"watch","enable":true}"#)
  }

  @Test func badCommandsFailWithTheirMessage() {
    for bad in SocketServerTests.badCommands {
      #expect(
        CommandParser.parse(Array(bad.line.utf8)) == .failure(CommandError(unescape(bad.error))),
        "\(bad.line)")
    }
  }

  /// Today: `"cmd" must be a string`, which sent the client looking in the
  /// wrong place.
  @Test func invalidUTF8IsSaidToBeThat() {
    let line = Array(#"{"cmd":"st"#.utf8) + [0xFF, 0xFE] + Array(#"tus"}"#.utf8)
    #expect(CommandParser.parse(line) == .failure(CommandError("command is not valid UTF-8")))
    let overlong = Array(#"{"cmd":"status","#.utf8) + [0xC0, 0xAF] + Array("}".utf8)
    #expect(CommandParser.parse(overlong) == .failure(CommandError("command is not valid UTF-8")))
  }

  @Test func subscriptionSetIsSortedAndExact() {
    var set = SubscriptionSet([.status, .rep])
    #expect(set.classes == [.rep, .status])
    set.remove(.rep)
    set.insert(.lift)
    #expect(set.classes == [.lift, .status])
    #expect(
      SubscriptionSet.all.classes == [
        .lift, .rep, .repProvisional, .repWithdrawn, .sample, .set, .status,
      ])
    #expect(SubscriptionSet.none.classes.isEmpty)
  }

  /// The table holds messages as they appear inside the JSON string.
  private func unescape(_ s: String) -> String { s.replacingOccurrences(of: #"\""#, with: #"""#) }
}
