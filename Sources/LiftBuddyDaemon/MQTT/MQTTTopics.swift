#if canImport(Glibc)
  import Glibc
#endif

/// The topics one rack publishes on: `<prefix>/<rack>/<class>`, so that a
/// coach subscribes to `liftbuddy/+/rep` for every rack's reps, or to
/// `liftbuddy/rack-3/#` for one rack's everything.
public struct MQTTTopics: Sendable, Equatable {
  public let prefix: String
  public let rack: String

  public init(prefix: String, rack: String) {
    self.prefix = prefix
    self.rack = rack
  }

  public func topic(_ name: String) -> String { "\(prefix)/\(rack)/\(name)" }

  public var set: String { topic("set") }
  public var rep: String { topic("rep") }
  public var repProvisional: String { topic("rep_provisional") }
  public var repWithdrawn: String { topic("rep_withdrawn") }
  public var lift: String { topic("lift") }
  /// The newest lift report again, retained: what a coach who subscribes
  /// while the rack is idle sees of its last set.
  public var lastLift: String { topic(Self.lastLiftLevel) }
  public static let lastLiftLevel = "last_lift"
  /// Only with `mqtt_samples`.
  public var sample: String { topic("sample") }
  /// Commands from the coach (with `mqtt_commands`), and their answers.
  public var command: String { topic("cmd") }
  public var reply: String { topic("reply") }
  /// Retained, and the last will's topic.
  public var status: String { topic("status") }

  /// A rack name is one topic level: no `/`, and none of MQTT's wildcards
  /// (`+`, `#`) or `$` (which starts the broker's own topics), so that
  /// `liftbuddy/+/rep` matches it and a subscriber can split the topic
  /// back into prefix and rack. Kept to a conservative set of characters
  /// because it also names the client (`liftbuddyd-<rack>`) and shows on a
  /// coach's screen.
  public static func isValidRack(_ text: String) -> Bool {
    !text.isEmpty && text.utf8.count <= 64 && text.allSatisfy(isLevelCharacter)
  }

  /// One or more levels separated by `/`, each a valid rack-like name.
  public static func isValidPrefix(_ text: String) -> Bool {
    text.utf8.count <= 128
      && text.split(separator: "/", omittingEmptySubsequences: false).allSatisfy {
        !$0.isEmpty && $0.allSatisfy(isLevelCharacter)
      }
  }

  /// The default rack name: the host's name, as `hostname` prints it, with
  /// any character a rack name cannot have replaced by `_`.
  public static func defaultRack() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    let name =
      gethostname(&buffer, buffer.count - 1) == 0
      ? String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : ""
    let cleaned = String(name.prefix(64).map { isLevelCharacter($0) ? $0 : "_" })
    return cleaned.isEmpty ? "rack" : cleaned
  }

  private static func isLevelCharacter(_ c: Character) -> Bool {
    c.isASCII && (c.isLetter || c.isNumber || c == "-" || c == "_" || c == ".")
  }
}
