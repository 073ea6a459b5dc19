import LiftBuddyCore

/// The socket protocol's event objects as a client reads them
/// (docs/socket-protocol.md): one reading for every client of ours —
/// `liftbuddy watch` on the socket, the coach's room on MQTT — so the two
/// cannot drift apart. Decoding ignores fields a newer daemon adds.
public enum WireReading {
  /// `set`: a set started.
  public struct SetStarted: Decodable, Sendable {
    public var setID: String
    public var set: Int
    public var exercise: String?
    public var loadKg: Double?
    enum CodingKeys: String, CodingKey {
      case set, exercise
      case setID = "set_id"
      case loadKg = "load_kg"
    }
  }

  /// `rep` and `rep_provisional`.
  public struct Rep: Decodable, Sendable {
    public var setID: String
    public var set: Int
    public var exercise: String?
    public var loadKg: Double?
    public var rep: RepReport
    public var velocityLossPct: Double?
    enum CodingKeys: String, CodingKey {
      case set, exercise, rep
      case setID = "set_id"
      case loadKg = "load_kg"
      case velocityLossPct = "velocity_loss_pct"
    }
  }

  /// `rep_withdrawn`.
  public struct Withdrawn: Decodable, Sendable {
    public var setID: String
    public var set: Int
    public var index: Int
    public var reason: String
    enum CodingKeys: String, CodingKey {
      case set, index, reason
      case setID = "set_id"
    }
  }
}
