import Foundation
import LiftBuddyCore

/// Turns one command line into a validated `ClientCommand`, or a
/// `CommandError` whose message tells the client exactly what was wrong.
///
/// A pure function of the bytes: no channel, no state, so the fuzz target and
/// the tests exercise the very code the server runs. Unknown fields are
/// rejected rather than ignored, so a typo (`"clases"`) is reported instead of
/// silently widening a subscription.
public enum CommandParser {
  public static func parse(_ line: [UInt8]) -> Result<ClientCommand, CommandError> {
    if line.contains(0) { return .failure(CommandError("NUL byte in command")) }
    // Decoding repairs bad sequences; if it changed anything, they were bad.
    guard String(decoding: line, as: UTF8.self).utf8.elementsEqual(line) else {
      return .failure(CommandError("command is not valid UTF-8"))
    }
    do {
      return .success(try JSONDecoder().decode(CommandObject.self, from: Data(line)).command)
    } catch let error as CommandError {
      return .failure(error)
    } catch {
      return .failure(CommandError("not a JSON object: commands are one JSON object per line"))
    }
  }
}

/// The decoding step proper: reads the object key by key so that each wrong
/// field gets its own message.
private struct CommandObject: Decodable {
  var command: ClientCommand

  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    let object: KeyedDecodingContainer<Key>
    do {
      object = try decoder.container(keyedBy: Key.self)
    } catch DecodingError.typeMismatch {
      throw CommandError("a command must be a JSON object, e.g. {\"cmd\":\"watch\"}")
    }
    let cmdKey = Key(stringValue: "cmd")
    guard object.contains(cmdKey) else { throw CommandError("missing \"cmd\"") }
    guard let cmd = try? object.decode(String.self, forKey: cmdKey) else {
      throw CommandError("\"cmd\" must be a string")
    }
    let allowed: Set<String>
    switch cmd {
    case "watch": allowed = ["enable", "classes"]
    case "set": allowed = ["exercise", "load_kg"]
    case "start_set", "end_set", "status", "version": allowed = []
    default: throw CommandError("unknown command \"\(cmd)\"; known: \(Self.commandNames)")
    }
    let unknown = object.allKeys.map(\.stringValue).filter { $0 != "cmd" && !allowed.contains($0) }
      .sorted()
    if let field = unknown.first { throw CommandError("unknown field \"\(field)\" for \(cmd)") }

    switch cmd {
    case "watch": command = try Self.watch(object)
    case "set": command = try Self.set(object)
    case "start_set": command = .startSet
    case "end_set": command = .endSet
    case "status": command = .status
    default: command = .version
    }
  }

  static let commandNames = "end_set, set, start_set, status, version, watch"

  private static func watch(_ object: KeyedDecodingContainer<Key>) throws -> ClientCommand {
    var enable = true
    let enableKey = Key(stringValue: "enable")
    if object.contains(enableKey) {
      guard let value = try? object.decode(Bool.self, forKey: enableKey) else {
        throw CommandError("\"enable\" must be true or false")
      }
      enable = value
    }
    var classes = EventClass.allCases
    let classesKey = Key(stringValue: "classes")
    if object.contains(classesKey) {
      guard let names = try? object.decode([String].self, forKey: classesKey) else {
        throw CommandError("\"classes\" must be an array of class names")
      }
      classes = try names.map { name in
        guard let c = EventClass(rawValue: name) else {
          throw CommandError("unknown class \"\(name)\"; known: \(classNames)")
        }
        return c
      }
    }
    return .watch(enable: enable, classes: classes)
  }

  static var classNames: String {
    EventClass.allCases.sorted().map(\.rawValue).joined(separator: ", ")
  }

  private static func set(_ object: KeyedDecodingContainer<Key>) throws -> ClientCommand {
    var exercise: Exercise?
    let exerciseKey = Key(stringValue: "exercise")
    if object.contains(exerciseKey), !((try? object.decodeNil(forKey: exerciseKey)) ?? false) {
      guard let name = try? object.decode(String.self, forKey: exerciseKey) else {
        throw CommandError("\"exercise\" must be a string or null")
      }
      guard let known = Exercise(rawValue: name) else {
        let names = Exercise.allCases.map(\.rawValue).sorted().joined(separator: ", ")
        throw CommandError("unknown exercise \"\(name)\"; known: \(names)")
      }
      exercise = known
    }
    var load: Double?
    let loadKey = Key(stringValue: "load_kg")
    if object.contains(loadKey), !((try? object.decodeNil(forKey: loadKey)) ?? false) {
      guard let value = try? object.decode(Double.self, forKey: loadKey) else {
        throw CommandError("\"load_kg\" must be a number or null")
      }
      let range = DaemonConfiguration.loadKgRange
      guard value.isFinite, range.contains(value) else {
        throw CommandError(
          "\"load_kg\" must be from \(Int(range.lowerBound)) to \(Int(range.upperBound)) (kg), or null"
        )
      }
      load = value
    }
    return .set(exercise: exercise, loadKg: load)
  }
}
