import LiftBuddyCore
import NIOCore

/// `{"class":"coach","connected":true,"message":null,"mqtt":"broker.local:1883","prefix":"liftbuddy"}`:
/// the room view's own link to the broker, sent to its pages before the
/// racks, so that a page can tell "every rack is quiet" from "the coach
/// cannot reach the broker".
struct CoachLinkObject: Encodable {
  let `class` = "coach"
  /// The broker, `HOST:PORT` (named as the `mqtt` key that gives it).
  var mqtt: String
  var prefix: String
  var connected: Bool
  /// What is wrong, while not connected.
  var message: String?

  enum CodingKeys: String, CodingKey { case `class`, mqtt, prefix, connected, message }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(mqtt, forKey: .mqtt)
    try c.encode(prefix, forKey: .prefix)
    try c.encode(connected, forKey: .connected)
    try c.encode(message, forKey: .message)
  }

  var frame: ByteBuffer { ByteBuffer(bytes: ReportJSON.data(self)) }
}
