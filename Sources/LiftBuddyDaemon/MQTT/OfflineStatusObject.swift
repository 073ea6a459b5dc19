import Foundation
import LiftBuddyCore

/// `{"class":"status","state":"offline",…}`: a `status` object in the
/// socket's shape (same keys, the unknown ones null) with a state the
/// socket never needs, since a socket client sees the daemon go away for
/// itself. An MQTT subscriber does not: the broker tells it with this.
struct OfflineStatusObject: Encodable {
  let `class` = "status"
  let state = "offline"
  var source: String
  var message: String

  enum CodingKeys: String, CodingKey { case `class`, state, source, message, quality, t, reports }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(state, forKey: .state)
    try c.encode(source, forKey: .source)
    try c.encode(message, forKey: .message)
    try c.encodeNull(forKey: .quality)
    try c.encodeNull(forKey: .t)
    try c.encodeNull(forKey: .reports)
  }

  func encoded() -> [UInt8] {
    // Strings only: encoding cannot fail.
    Array((try? ReportJSON.encoder().encode(self)) ?? Data())
  }
}
