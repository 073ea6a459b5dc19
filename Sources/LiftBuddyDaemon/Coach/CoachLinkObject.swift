import LiftBuddyCore
import NIOCore

/// `{"class":"coach","broker":"…","connected":true,"message":null,"prefix":"liftbuddy"}`:
/// the room view's own link to the broker, sent to its pages before the
/// racks, so that a page can tell "every rack is quiet" from "the coach
/// cannot reach the broker".
struct CoachLinkObject: Encodable {
  let `class` = "coach"
  var broker: String
  var prefix: String
  var connected: Bool
  /// What is wrong, while not connected.
  var message: String?

  enum CodingKeys: String, CodingKey { case `class`, broker, prefix, connected, message }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(broker, forKey: .broker)
    try c.encode(prefix, forKey: .prefix)
    try c.encode(connected, forKey: .connected)
    try c.encode(message, forKey: .message)
  }

  var frame: ByteBuffer { ByteBuffer(bytes: ReportJSON.data(self)) }
}
