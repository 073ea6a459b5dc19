import LiftBuddyCore

// The shapes of the objects the server sends, one struct per class. Each
// writes its optional fields as explicit nulls (`encodeOrNull`, as the
// report types do), so a subscriber sees "unknown" rather than a missing
// key, and every object has the same keys every time.

struct VersionObject: Encodable {
  let `class` = "version"
  var release: String
  var protoMajor: Int
  var protoMinor: Int

  enum CodingKeys: String, CodingKey {
    case `class`, release
    case protoMajor = "proto_major"
    case protoMinor = "proto_minor"
  }
}

struct AckObject: Encodable {
  let `class` = "ack"
  var cmd: String
  /// Only for `watch`: the subscriptions now in force.
  var classes: [String]?

  enum CodingKeys: String, CodingKey { case `class`, cmd, classes }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(cmd, forKey: .cmd)
    try c.encodeIfPresent(classes, forKey: .classes)
  }
}

struct ErrorObject: Encodable {
  let `class` = "error"
  var message: String

  enum CodingKeys: String, CodingKey { case `class`, message }
}

struct StatusObject: Encodable {
  let `class` = "status"
  var status: DaemonStatus

  enum CodingKeys: String, CodingKey { case `class`, state, source, message, quality, t, reports }

  /// `reports`: null where nothing writes report files (`liftbuddy replay`).
  struct Reports: Encodable {
    var counts: ReportFileWriter.Counts
    enum CodingKeys: String, CodingKey {
      case written, pending
      case setAside = "set_aside"
    }
    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(counts.written, forKey: .written)
      try c.encode(counts.setAside, forKey: .setAside)
      try c.encode(counts.pending, forKey: .pending)
    }
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(status.state, forKey: .state)
    try c.encode(status.source, forKey: .source)
    try c.encodeOrNull(status.message, forKey: .message)
    try c.encode(status.quality, forKey: .quality)
    try c.encode(status.t, forKey: .t)
    try c.encodeOrNull(status.reports.map(Reports.init), forKey: .reports)
  }
}

struct SetObject: Encodable {
  let `class` = "set"
  var set: SetStarted

  enum CodingKeys: String, CodingKey {
    case `class`, set, exercise
    case setID = "set_id"
    case startS = "start_s"
    case loadKg = "load_kg"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(set.setID, forKey: .setID)
    try c.encode(set.setNumber, forKey: .set)
    try c.encode(set.startS, forKey: .startS)
    try c.encodeOrNull(set.exercise, forKey: .exercise)
    try c.encodeOrNull(set.loadKg, forKey: .loadKg)
  }
}

/// `rep` (final) and `rep_provisional` (told at lockout, may be withdrawn)
/// have the same shape, so a client reads both with one decoder.
struct RepObject: Encodable {
  var `class`: String
  var event: RepEvent

  enum CodingKeys: String, CodingKey {
    case `class`, set, exercise, rep
    case setID = "set_id"
    case loadKg = "load_kg"
    case velocityLossPct = "velocity_loss_pct"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(event.setID, forKey: .setID)
    try c.encode(event.setNumber, forKey: .set)
    try c.encodeOrNull(event.exercise, forKey: .exercise)
    try c.encodeOrNull(event.loadKg, forKey: .loadKg)
    try c.encode(event.rep, forKey: .rep)
    try c.encodeOrNull(event.velocityLossPct, forKey: .velocityLossPct)
  }
}

struct RepWithdrawnObject: Encodable {
  let `class` = "rep_withdrawn"
  var withdrawal: RepWithdrawal

  enum CodingKeys: String, CodingKey {
    case `class`, set, index, reason
    case setID = "set_id"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(withdrawal.setID, forKey: .setID)
    try c.encode(withdrawal.setNumber, forKey: .set)
    try c.encode(withdrawal.index, forKey: .index)
    try c.encode(withdrawal.reason.rawValue, forKey: .reason)
  }
}

struct LiftObject: Encodable {
  let `class` = "lift"
  var report: LiftReport

  enum CodingKeys: String, CodingKey { case `class`, report }
}

struct SampleObject: Encodable {
  let `class` = "sample"
  var state: LiveState

  enum CodingKeys: String, CodingKey {
    case `class`, t
    case heightCm = "height_cm"
    case velocityMps = "velocity_mps"
    case pitchDeg = "pitch_deg"
    case rollDeg = "roll_deg"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(`class`, forKey: .class)
    try c.encode(state.t, forKey: .t)
    try c.encodeOrNull(state.heightCm, forKey: .heightCm)
    try c.encodeOrNull(state.velocityMps, forKey: .velocityMps)
    try c.encodeOrNull(state.pitchDeg, forKey: .pitchDeg)
    try c.encodeOrNull(state.rollDeg, forKey: .rollDeg)
  }
}
