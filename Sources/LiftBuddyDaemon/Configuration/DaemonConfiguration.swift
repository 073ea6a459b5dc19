import LiftBuddyCore
import Logging

/// Everything liftbuddyd can be told, from its config file and its flags.
///
/// One vocabulary for both: every setting has a key (`output_dir`), its flag
/// is the key with dashes (`--output-dir`), and both go through `set(_:to:)`,
/// so a value is validated the same way wherever it comes from. Defaults are
/// overridden by the file, the file by the flags.
public struct DaemonConfiguration: Sendable, Equatable {
  public var source: SourceSpec?
  /// Unix socket path; nil: `$RUNTIME_DIRECTORY/liftbuddy.sock`, else `./liftbuddy.sock`.
  public var socketPath: String?
  /// Where lift reports go; nil: `$STATE_DIRECTORY/lifts`, else `./lifts`.
  public var outputDir: String?
  /// Tee every received line to this recorded-stream file.
  public var recordPath: String?
  public var speed: ReplaySpeed = .factor(1)
  public var loop = false
  public var exercise: Exercise?
  public var loadKg: Double?
  public var baud = 115_200
  public var socketMode: UInt16 = 0o660
  public var socketGroup: String?
  public var logLevel: Logger.Level = .info
  /// Upper bound on live `sample` events per second.
  public var sampleRateHz: Double = 10
  public var analyzer = AnalyzerConfiguration()
  /// The web view (docs/web.md): off unless an address is given.
  public var http: WebAddress?
  /// nil: a random code at every start, printed and shown in `systemctl status`.
  public var httpPairingCode: PairingCode?
  /// The page's files; nil: beside the executable, else /usr/local/share/liftbuddy/web.
  public var httpRoot: String?
  /// The gym's MQTT broker (docs/mqtt.md): off unless given.
  public var mqtt: MQTTBroker?
  /// This rack's name in the topics; nil: the host name.
  public var rack: String?
  public var mqttPrefix = "liftbuddy"
  /// The broker's user name for this rack (not a secret; the ACL's `%u`).
  public var mqttUsername: String?
  /// The password, read from this file when the daemon starts; nil: from
  /// `$CREDENTIALS_DIRECTORY/mqtt-password` when systemd passes one
  /// (`LoadCredential=`). Never a value on the command line.
  public var mqttPasswordFile: String?
  /// TLS to the broker; on by itself when a CA or client certificate is given.
  public var mqttTLS = false
  /// CA certificate(s) to check the broker with; nil: the system's (/etc/ssl/certs).
  public var mqttCAFile: String?
  /// Client certificate and its key, for a broker that asks for one.
  public var mqttCertFile: String?
  /// nil: `$CREDENTIALS_DIRECTORY/mqtt-key` when there is one.
  public var mqttKeyFile: String?
  /// Takes `set`, `start_set`, `end_set` from `<prefix>/<rack>/cmd`.
  public var mqttCommands = false
  /// Publishes `sample` on `<prefix>/<rack>/sample`, at most `sample_rate_hz`.
  public var mqttSamples = false
  /// Also follow every rack on the broker and serve the room view (docs/mqtt.md).
  public var coach = false

  public init() {}

  /// Loads taken, in kg, from the config, the flags and socket clients
  /// alike: the heaviest barbell lifts ever made are about half of this.
  public static let loadKgRange: ClosedRange<Double> = 0...1000

  /// The keys, in the order `--help` and the example file list them.
  public static var keys: [String] { ConfigKey.all.map(\.name) }

  /// Keys that SIGHUP applies to the running daemon; the others are read
  /// again but need a restart to take effect.
  public static var reloadableKeys: Set<String> {
    Set(ConfigKey.all.filter(\.reloadable).map(\.name))
  }

  public static let baudRates = [
    1200, 2400, 4800, 9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600,
  ]

  /// Sets one key from its text form; `origin` names where it came from.
  public mutating func set(_ key: String, to text: String, origin: String? = nil)
    throws(ConfigurationError)
  {
    do {
      try apply(key, text)
    } catch {
      throw ConfigurationError(key: key, reason: error.text, origin: origin)
    }
  }

  private mutating func apply(_ key: String, _ text: String) throws(ConfigurationError.Reason) {
    switch key {
    case "source": source = try SourceSpec(parsing: text)
    case "socket": socketPath = try Self.path(text)
    case "output_dir": outputDir = try Self.path(text)
    case "record": recordPath = try Self.path(text)
    case "speed": speed = try ReplaySpeed(parsing: text)
    case "loop": loop = try Self.bool(text)
    case "exercise": exercise = try Self.exercise(text)
    case "load_kg":
      if Self.isUnknown(text) {
        loadKg = nil
      } else {
        loadKg = try Self.number(
          text, min: Self.loadKgRange.lowerBound, max: Self.loadKgRange.upperBound, unit: "kg")
      }
    case "baud":
      guard let n = Int(text), Self.baudRates.contains(n) else {
        throw .init(
          "expected one of \(Self.baudRates.map(String.init).joined(separator: ", ")), got '\(text)'"
        )
      }
      baud = n
    case "socket_mode":
      guard text.allSatisfy({ ("0"..."7").contains($0) }), let n = UInt16(text, radix: 8),
        n <= 0o777,
        !text.isEmpty
      else {
        throw .init("expected octal permissions such as 0660, got '\(text)'")
      }
      socketMode = n
    case "socket_group":
      guard !text.isEmpty, !text.contains(where: { $0 == " " || $0 == ":" }) else {
        throw .init("expected a group name, got '\(text)'")
      }
      socketGroup = text
    case "log_level":
      guard let level = Logger.Level(rawValue: text.lowercased()) else {
        throw .init(
          "expected one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'"
        )
      }
      logLevel = level
    case "sample_rate_hz": sampleRateHz = try Self.number(text, min: 0.1, max: 100, unit: "Hz")
    case "smoother":
      guard let s = AnalyzerConfiguration.Smoother(rawValue: text) else {
        throw .init(
          "expected one of \(AnalyzerConfiguration.Smoother.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'"
        )
      }
      analyzer.smoother = s
    case "smoothing_window_s":
      analyzer.smoothingWindowS = try Self.number(text, min: 0.01, max: 5, unit: "s")
    case "set_rest_s": analyzer.setRestS = try Self.number(text, min: 1, max: 3600, unit: "s")
    case "min_rom_cm":
      analyzer.minRomCm =
        Self.isUnknown(text) ? nil : try Self.number(text, min: 0, max: 200, unit: "cm")
    case "nominal_rate_hz":
      analyzer.nominalRateHz = try Self.number(text, min: 1, max: 1000, unit: "Hz")
    case "http":
      if Self.isUnknown(text) || text.lowercased() == "off" {
        http = nil
      } else {
        guard let address = WebAddress(parsing: text) else {
          throw .init("expected ADDRESS:PORT such as 0.0.0.0:8080 or 127.0.0.1:8080, got '\(text)'")
        }
        http = address
      }
    case "http_pairing_code":
      guard let code = PairingCode(text) else {
        throw .init("expected 4 to 64 printable characters without spaces")
      }
      httpPairingCode = code
    case "http_root": httpRoot = try Self.path(text)
    case "mqtt":
      if Self.isUnknown(text) || text.lowercased() == "off" {
        mqtt = nil
      } else {
        guard let broker = MQTTBroker(parsing: text) else {
          throw .init(
            "expected HOST or HOST:PORT such as broker.local, 192.168.1.10:1883 or [fd00::1]:1883, got '\(text)'"
          )
        }
        mqtt = broker
      }
    case "rack":
      guard MQTTTopics.isValidRack(text) else {
        throw .init(
          "expected 1 to 64 letters, digits, '-', '_' or '.' (one MQTT topic level), got '\(text)'")
      }
      rack = text
    case "mqtt_prefix":
      guard MQTTTopics.isValidPrefix(text) else {
        throw .init(
          "expected topic levels of letters, digits, '-', '_' or '.' separated by '/', such as liftbuddy or gym-1/liftbuddy, got '\(text)'"
        )
      }
      mqttPrefix = text
    case "mqtt_username":
      guard !text.isEmpty, text.utf8.count <= 256, !text.utf8.contains(0),
        text.allSatisfy({ !$0.isWhitespace })
      else { throw .init("expected a user name of 1 to 256 characters without spaces") }
      mqttUsername = text
    case "mqtt_password_file": mqttPasswordFile = try Self.path(text)
    case "mqtt_tls": mqttTLS = try Self.bool(text)
    case "mqtt_ca_file": mqttCAFile = try Self.path(text)
    case "mqtt_cert_file": mqttCertFile = try Self.path(text)
    case "mqtt_key_file": mqttKeyFile = try Self.path(text)
    case "mqtt_commands": mqttCommands = try Self.bool(text)
    case "mqtt_samples": mqttSamples = try Self.bool(text)
    case "coach": coach = try Self.bool(text)
    default:
      throw .init("unknown key; known keys are \(Self.keys.joined(separator: ", "))")
    }
  }

  /// Checks what no single key can: the settings that must be there, or
  /// that depend on one another.
  public func validated() throws(ConfigurationError) -> Self {
    guard source != nil else {
      throw ConfigurationError(
        key: "source", reason: "missing; give --source or 'source =' in the config file")
    }
    if mqttKeyFile != nil, mqttCertFile == nil {
      throw ConfigurationError(
        key: "mqtt_key_file", reason: "a client key needs its certificate (mqtt_cert_file)")
    }
    if coach, mqtt == nil || http == nil {
      throw ConfigurationError(
        key: "coach",
        reason:
          "the room view needs a broker to follow and a page to show it on: give mqtt and http too")
    }
    return self
  }

  // MARK: - Resolved defaults

  /// `output_dir`, or `$STATE_DIRECTORY/lifts` under systemd, or `./lifts`.
  public func resolvedOutputDir(environment: [String: String]) -> String {
    if let outputDir { return outputDir }
    if let state = Self.firstDirectory(environment["STATE_DIRECTORY"]) { return state + "/lifts" }
    return "./lifts"
  }

  /// `socket`, or `$RUNTIME_DIRECTORY/liftbuddy.sock` under systemd, or `./liftbuddy.sock`.
  public func resolvedSocketPath(environment: [String: String]) -> String {
    if let socketPath { return socketPath }
    if let runtime = Self.firstDirectory(environment["RUNTIME_DIRECTORY"]) {
      return runtime + "/liftbuddy.sock"
    }
    return "./liftbuddy.sock"
  }

  /// systemd passes several directories separated by colons.
  private static func firstDirectory(_ value: String?) -> String? {
    guard let first = value?.split(separator: ":").first, !first.isEmpty else { return nil }
    return String(first)
  }

  // MARK: - Value parsers

  private static func isUnknown(_ text: String) -> Bool {
    ["", "unknown", "none"].contains(text.lowercased())
  }

  private static func path(_ text: String) throws(ConfigurationError.Reason) -> String {
    guard !text.isEmpty else { throw .init("expected a path, got nothing") }
    guard !text.utf8.contains(0) else { throw .init("a path cannot contain a NUL byte") }
    return text
  }

  private static func bool(_ text: String) throws(ConfigurationError.Reason) -> Bool {
    switch text.lowercased() {
    case "true", "yes", "on", "1": return true
    case "false", "no", "off", "0": return false
    default: throw .init("expected true or false, got '\(text)'")
    }
  }

  private static func exercise(_ text: String) throws(ConfigurationError.Reason) -> Exercise? {
    if isUnknown(text) { return nil }
    guard let e = Exercise(rawValue: text) else {
      throw .init(
        "expected one of \(Exercise.allCases.map(\.rawValue).joined(separator: ", ")) or unknown, got '\(text)'"
      )
    }
    return e
  }

  private static func number(
    _ text: String, min: Double, max: Double, unit: String
  ) throws(ConfigurationError.Reason) -> Double {
    guard let n = Double(text), n.isFinite else { throw .init("expected a number, got '\(text)'") }
    guard n >= min, n <= max else {
      throw .init("\(text) is outside \(fmt(min))–\(fmt(max)) \(unit)")
    }
    return n
  }

  static func fmt(_ n: Double) -> String {
    n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
  }
}
