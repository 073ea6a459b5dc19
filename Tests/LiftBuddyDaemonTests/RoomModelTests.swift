import Foundation
import LiftBuddyCore
import Testing

@testable import LiftBuddyDaemon

/// The coach's room model, fed the very payloads a rack publishes (made by
/// the MQTT sink's own `MQTTMessage.make` from a real stream's events).
@Suite struct RoomModelTests {
  static let topics = MQTTTopics(prefix: "liftbuddy", rack: "r1")

  /// The messages `liftbuddyd --mqtt … --rack r1` publishes for a stream.
  static func messages(_ stream: String = MQTTTests.stream) throws -> [MQTTMessage] {
    var analysis = RecordedStreamAnalysis(sourceName: "replay:test")
    var events: [AnalyzerEvent] = []
    let bytes = try Data(contentsOf: URL(fileURLWithPath: stream))
    bytes.withUnsafeBytes { analysis.append($0, into: &events) }
    analysis.finish(into: &events)
    return events.compactMap { MQTTMessage.make(for: .analyzer($0), topics: topics) }
  }

  static func reports(_ messages: [MQTTMessage]) throws -> [LiftReport] {
    try messages.filter { $0.topic.hasSuffix("/lift") }.map {
      try JSONDecoder().decode(LiftReport.self, from: Data($0.payload))
    }
  }

  @discardableResult
  static func feed(_ model: inout RoomModel, _ message: MQTTMessage, prefix: String = "liftbuddy")
    -> Bool
  {
    guard let topic = CoachTopic(message.topic, prefix: prefix) else { return false }
    return model.apply(topic, payload: message.payload)
  }

  static func relabel(_ payload: [UInt8], _ change: (inout [String: Any]) -> Void) throws -> [UInt8]
  {
    var o = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
    change(&o)
    return Array(try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]))
  }

  @Test func aRackAfterItsSetHoldsTheReportsNumbers() throws {
    let messages = try Self.messages()
    let report = try #require(try Self.reports(messages).last)
    var model = RoomModel()
    var repsSeen: [Int] = []
    for m in messages {
      Self.feed(&model, m)
      if m.topic.hasSuffix("/rep") { repsSeen.append(model.racks["r1"]?.finalReps ?? -1) }
    }
    // Reps so far, rep by rep: 1, 2, 3 …
    #expect(repsSeen == Array(1...report.reps.count))
    let rack = try #require(model.racks["r1"])
    #expect(rack.set?.setID == report.id && rack.set?.finished == true)
    #expect(rack.set?.exercise == report.exercise && rack.set?.loadKg == report.loadKg)
    #expect(rack.finalReps == report.summary.repCount && rack.provisionalReps == 0)
    #expect(rack.lastRepMeanVelocityMps == report.reps.last?.meanVelocityMps)
    #expect(rack.velocityLossPct == report.summary.velocityLossPct)
    #expect(rack.lastLift?.id == report.id && rack.lastLift?.summary == report.summary)
    #expect(rack.online == true && rack.lifts == 1)
    // The page's object carries the rack's own last rep object, byte for byte.
    let lastRep = try #require(messages.last { $0.topic.hasSuffix("/rep") })
    #expect(rack.lastRep == lastRep.payload)
    let frame = RackObject.frame(rack)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(frame.readableBytesView)) as? [String: Any])
    #expect(object["class"] as? String == "rack" && object["rack"] as? String == "r1")
    #expect(object["reps"] as? Int == report.reps.count)
    #expect(
      String(decoding: frame.readableBytesView, as: UTF8.self).hasPrefix(#"{"class":"rack","#))
    #expect(
      String(decoding: frame.readableBytesView, as: UTF8.self).contains(
        #""last_rep":\#(String(decoding: lastRep.payload, as: UTF8.self)),"#))
  }

  /// A report sent again (a rack restarted between the broker's PUBACK and
  /// clearing its disk queue) is taken once; the same id from another rack
  /// is another set.
  @Test func liftReportsAreDeduplicatedByRackAndID() throws {
    let messages = try Self.messages()
    let lift = try #require(messages.last { $0.topic.hasSuffix("/lift") })
    var model = RoomModel()
    for m in messages { Self.feed(&model, m) }
    let again = Self.feed(&model, lift)
    #expect(!again)
    #expect(model.counts.duplicates == 1 && model.racks["r1"]?.lifts == 1)
    let other = MQTTMessage(
      topic: "liftbuddy/r2/lift", payload: lift.payload, qos: 1, retain: false)
    let fromOther = Self.feed(&model, other)
    #expect(fromOther)
    #expect(model.racks["r2"]?.lifts == 1 && model.counts.duplicates == 1)
  }

  /// A retained copy (`last_lift`) heard before the report itself shows
  /// the rack's last set, recalled and uncounted; the same report live is
  /// then a duplicate. Heard after it (as every copy is by a coach already
  /// subscribed), it changes nothing. A set the rack is in already is
  /// newer than the copy and stays; the rack's next set replaces a
  /// recalled one.
  @Test func retainedCopyFillsTheLastSetOnceAndNeverOverAnewerSet() throws {
    let messages = try Self.messages()
    let lift = try #require(messages.last { $0.topic.hasSuffix("/lift") })
    let report = try #require(try Self.reports(messages).last)
    let copy = lift.lastLiftCopy(topics: Self.topics)
    #expect(CoachTopic(copy.topic, prefix: "liftbuddy")?.isLastLift == true)

    var late = RoomModel()
    let recalled = Self.feed(&late, copy)
    #expect(recalled)
    var rack = try #require(late.racks["r1"])
    #expect(rack.lastLift?.id == report.id && rack.lastLift?.recalled == true && rack.lifts == 0)
    #expect(rack.set?.setID == report.id && rack.set?.finished == true && rack.set?.number == nil)
    #expect(rack.finalReps == report.reps.count && rack.lastRep == nil)
    #expect(rack.velocityLossPct == report.summary.velocityLossPct)
    let liveAfter = Self.feed(&late, lift)
    let copyAgain = Self.feed(&late, copy)
    #expect(!liveAfter && !copyAgain)
    #expect(
      late.counts.duplicates == 1 && late.counts.copiesKnown == 1 && late.counts.recalled == 1)
    let frame = String(
      decoding: RackObject.frame(late.racks["r1"]!).readableBytesView, as: UTF8.self)
    #expect(frame.contains(#""recalled":true"#) && frame.contains(#""set":null"#), "\(frame)")
    // The rack's next set replaces the recalled one.
    let set = try #require(messages.first { $0.topic.hasSuffix("/set") })
    let next = try Self.relabel(set.payload) { $0["set_id"] = "next-set" }
    let started = late.apply(rack: "r1", .set, payload: next)
    #expect(started)
    rack = try #require(late.racks["r1"])
    #expect(rack.set?.setID == "next-set" && rack.set?.finished == false && rack.finalReps == 0)
    #expect(rack.lastLift?.id == report.id)

    // A coach that followed the set live: the copy is known.
    var live = RoomModel()
    for m in messages { Self.feed(&live, m) }
    let copyAfterLive = Self.feed(&live, copy)
    #expect(!copyAfterLive)
    #expect(live.counts.copiesKnown == 1 && live.racks["r1"]?.lastLift?.recalled == false)

    // A coach that came in mid-set: the copy (an earlier set's) leaves the set alone.
    var midSet = RoomModel()
    let firstRep = try #require(messages.first { $0.topic.hasSuffix("/rep") })
    let earlier = try Self.relabel(lift.payload) { $0["id"] = "earlier-set" }
    let rep = Self.feed(&midSet, firstRep)
    let earlierRecalled = midSet.recall(rack: "r1", payload: earlier)
    #expect(rep && earlierRecalled)
    #expect(midSet.racks["r1"]?.set?.setID == report.id && midSet.racks["r1"]?.finalReps == 1)
    #expect(midSet.racks["r1"]?.lastLift?.id == "earlier-set")

    // A coach that reconnected after a set it saw end, and missed the next
    // one's report: the newer copy replaces the finished set.
    let newer = try Self.relabel(lift.payload) { $0["id"] = "newer-set" }
    let recalledNewer = live.recall(rack: "r1", payload: newer)
    #expect(recalledNewer)
    #expect(live.racks["r1"]?.set?.setID == "newer-set" && live.racks["r1"]?.set?.finished == true)
    #expect(live.racks["r1"]?.lastLift?.recalled == true && live.racks["r1"]?.lifts == 1)
  }

  /// An empty retained message on `status` or `last_lift` is an operator
  /// clearing a retired rack (docs/mqtt.md): counted as such, not as a bad
  /// payload, and it changes nothing; an empty `rep` is still unreadable.
  @Test func clearedRetainedMessagesAreCountedApart() throws {
    var model = RoomModel()
    for topic in ["liftbuddy/r1/last_lift", "liftbuddy/r1/status", "liftbuddy/r1/rep"] {
      let applied = model.apply(try #require(CoachTopic(topic, prefix: "liftbuddy")), payload: [])
      #expect(!applied, "\(topic)")
    }
    #expect(model.counts.cleared == 2 && model.counts.unreadable == 1 && model.racks.isEmpty)
  }

  /// Shown at lockout, dimmed; replaced by the final rep; removed when
  /// withdrawn; a final rep is never turned back into a provisional one.
  @Test func provisionalRepsAreReplacedOrWithdrawn() throws {
    let messages = try Self.messages()
    let rep = try #require(messages.first { $0.topic.hasSuffix("/rep") })
    var model = RoomModel()
    let provisional = try Self.relabel(rep.payload) { $0["class"] = "rep_provisional" }
    let told = model.apply(rack: "r1", .repProvisional, payload: provisional)
    #expect(told && model.racks["r1"]?.provisionalReps == 1 && model.racks["r1"]?.finalReps == 0)
    do {
      let applied = model.apply(rack: "r1", .rep, payload: rep.payload)
      #expect(applied)
    }
    #expect(model.racks["r1"]?.provisionalReps == 0 && model.racks["r1"]?.finalReps == 1)
    do {
      let applied = model.apply(rack: "r1", .repProvisional, payload: provisional)
      #expect(!applied)
    }
    let second = try Self.relabel(provisional) {
      var r = $0["rep"] as! [String: Any]
      r["index"] = 2
      $0["rep"] = r
    }
    do {
      let applied = model.apply(rack: "r1", .repProvisional, payload: second)
      #expect(applied)
    }
    #expect(model.racks["r1"]?.lastRepIndex == 2)
    let setID = try #require(model.racks["r1"]?.set?.setID)
    let withdrawn = Array(
      #"{"class":"rep_withdrawn","index":2,"reason":"one_way","set":1,"set_id":"\#(setID)"}"#.utf8)
    do {
      let applied = model.apply(rack: "r1", .repWithdrawn, payload: withdrawn)
      #expect(applied)
    }
    let rack = try #require(model.racks["r1"])
    #expect(rack.reps.keys.sorted() == [1] && rack.lastRep == nil && rack.finalReps == 1)
  }

  /// The retained status says whether a rack is there; `offline` is its
  /// goodbye or its last will, and the rest of what is known stays shown.
  @Test func statusSaysOnlineOrOffline() throws {
    var model = RoomModel()
    let messages = try Self.messages()
    for m in messages { Self.feed(&model, m) }
    let offline = MQTTMessage.offline(
      topics: Self.topics, source: "serial:auto", message: "the daemon left without a goodbye",
      qos: 1)
    let gone = Self.feed(&model, offline)
    #expect(gone)
    let rack = try #require(model.racks["r1"])
    #expect(rack.online == false && rack.status == offline.payload && rack.lifts == 1)
    let starting = Array(
      #"{"class":"status","message":null,"quality":null,"reports":null,"source":"serial:auto","state":"starting","t":0}"#
        .utf8)
    do {
      let applied = model.apply(rack: "r1", .status, payload: starting)
      #expect(applied)
    }
    #expect(model.racks["r1"]?.online == true)
  }

  /// Payloads that are not their topic's object are counted and change
  /// nothing; topics that are not a rack's class are not the room's.
  @Test func badInputIsCountedAndBounded() throws {
    var model = RoomModel()
    for payload in ["", "not json", "[1]", #"{"class":"rep"}"#, "\u{0}\u{1}"] {
      do {
        let applied = model.apply(rack: "r1", .rep, payload: Array(payload.utf8))
        #expect(!applied)
      }
      do {
        let applied = model.apply(rack: "r1", .lift, payload: Array(payload.utf8))
        #expect(!applied)
      }
    }
    #expect(model.counts.unreadable == 10 && model.racks.isEmpty)
    // An object far bigger than any a rack sends is not passed on to pages.
    let rep = try #require(try Self.messages().first { $0.topic.hasSuffix("/rep") })
    let padded = try Self.relabel(rep.payload) {
      $0["padding"] = String(repeating: "x", count: RoomModel.maxObjectBytes)
    }
    let tooBig = model.apply(rack: "r1", .rep, payload: padded)
    #expect(!tooBig && model.counts.unreadable == 11 && model.racks.isEmpty)
    for topic in [
      "liftbuddy/r1/sample", "liftbuddy/r1/cmd", "liftbuddy/a/b/rep", "other/r1/rep",
      "liftbuddy/+/rep", "liftbuddy//rep", "liftbuddy/r 1/rep", "liftbuddyx/r1/rep",
    ] {
      #expect(CoachTopic(topic, prefix: "liftbuddy") == nil, "\(topic)")
    }
    let deep = CoachTopic("gym/1/liftbuddy/rack-3/rep_provisional", prefix: "gym/1/liftbuddy")
    #expect(deep?.rack == "rack-3" && deep?.eventClass == .repProvisional)
    let status = Array(#"{"class":"status","state":"connected"}"#.utf8)
    for i in 0..<(RoomModel.maxRacks + 10) {
      _ = model.apply(rack: "rack-\(i)", .status, payload: status)
    }
    #expect(model.racks.count == RoomModel.maxRacks && model.counts.racksRefused == 10)
  }
}
