import Foundation
import LiftBuddyCore
import NIOCore

/// The room view's one object per rack, sent to its pages whenever the
/// rack's state changes:
///
/// ```json
/// {"class":"rack","last_lift":{…}|null,"last_rep":<rep object>|null,"online":true,
///  "provisional_reps":0,"rack":"rack-3","reps":4,"set":{…}|null,
///  "status":<status object>|null,"velocity_loss_pct":6.1}
/// ```
///
/// `last_rep` and `status` are the rack's own socket-protocol objects, byte
/// for byte as it published them (one event model); the rest is what the
/// coach made of them. Keys sorted, `class` first, nulls explicit, as
/// `WireEncoder` writes every object.
enum RackObject {
  private struct SetPart: Encodable {
    var set: RackState.CurrentSet
    enum CodingKeys: String, CodingKey {
      case set, exercise, finished
      case setID = "set_id"
      case loadKg = "load_kg"
    }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(set.setID, forKey: .setID)
      try c.encode(set.number, forKey: .set)
      try c.encode(set.exercise, forKey: .exercise)
      try c.encode(set.loadKg, forKey: .loadKg)
      try c.encode(set.finished, forKey: .finished)
    }
  }

  private struct LiftPart: Encodable {
    var lift: RackState.LastLift
    enum CodingKeys: String, CodingKey {
      case id, exercise, summary, recalled
      case loadKg = "load_kg"
    }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(lift.id, forKey: .id)
      try c.encode(lift.exercise, forKey: .exercise)
      try c.encode(lift.loadKg, forKey: .loadKg)
      try c.encode(lift.recalled, forKey: .recalled)
      try c.encode(lift.summary, forKey: .summary)
    }
  }

  static func frame(_ rack: RackState) -> ByteBuffer {
    let null = Array("null".utf8)
    let fields: [(String, [UInt8])] = [
      ("class", json("rack")),
      ("last_lift", rack.lastLift.map { json(LiftPart(lift: $0)) } ?? null),
      ("last_rep", rack.lastRep ?? null),
      ("online", rack.online.map { json($0) } ?? null),
      ("provisional_reps", json(rack.provisionalReps)),
      ("rack", json(rack.name)),
      ("reps", json(rack.finalReps)),
      ("set", rack.set.map { json(SetPart(set: $0)) } ?? null),
      ("status", rack.status ?? null),
      ("velocity_loss_pct", rack.velocityLossPct.map { json($0) } ?? null),
    ]
    var buffer = ByteBuffer()
    buffer.writeInteger(UInt8(ascii: "{"))
    for (i, (key, value)) in fields.enumerated() {
      if i > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
      buffer.writeBytes(json(key))
      buffer.writeInteger(UInt8(ascii: ":"))
      buffer.writeBytes(value)
    }
    buffer.writeInteger(UInt8(ascii: "}"))
    return buffer
  }

  private static func json(_ value: some Encodable) -> [UInt8] { Array(ReportJSON.data(value)) }
}
