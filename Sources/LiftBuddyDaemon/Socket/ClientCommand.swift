import LiftBuddyCore

/// A well-formed command from a socket client, after parsing and validation.
/// Everything here is already checked, so the connection handler never has to
/// second-guess a field.
public enum ClientCommand: Equatable, Sendable {
  /// Subscribe (`enable` true) to `classes`, replacing the previous set, or
  /// unsubscribe (`enable` false) from them.
  case watch(enable: Bool, classes: [EventClass])
  case set(exercise: Exercise?, loadKg: Double?)
  case startSet
  case endSet
  case status
  case version

  /// The wire name, echoed in the `ack`.
  public var name: String {
    switch self {
    case .watch: "watch"
    case .set: "set"
    case .startSet: "start_set"
    case .endSet: "end_set"
    case .status: "status"
    case .version: "version"
    }
  }
}

/// Why a line was rejected; `message` goes to the client verbatim in an
/// `error` object, so it names the offending field and what was expected.
public struct CommandError: Error, Equatable, Sendable {
  public var message: String
  public init(_ message: String) { self.message = message }
}

extension ClientCommand {
  /// The command as a client sends it (without the newline): what
  /// `liftbuddy watch` writes, and what the fuzz target re-parses to check
  /// that parsing loses nothing.
  public func jsonLine() -> String {
    let object = WireCommand(command: self)
    return (try? ReportJSON.encoder().encode(object)).map { String(decoding: $0, as: UTF8.self) }
      ?? "{}"
  }
}

private struct WireCommand: Encodable {
  var command: ClientCommand

  enum CodingKeys: String, CodingKey {
    case cmd, enable, classes, exercise
    case loadKg = "load_kg"
  }

  func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(command.name, forKey: .cmd)
    switch command {
    case .watch(let enable, let classes):
      try c.encode(enable, forKey: .enable)
      try c.encode(classes.map(\.rawValue), forKey: .classes)
    case .set(let exercise, let loadKg):
      try c.encodeOrNull(exercise, forKey: .exercise)
      try c.encodeOrNull(loadKg, forKey: .loadKg)
    case .startSet, .endSet, .status, .version:
      break
    }
  }
}
