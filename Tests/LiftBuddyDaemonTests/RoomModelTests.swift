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
    return model.apply(rack: topic.rack, topic.eventClass, payload: message.payload)
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
