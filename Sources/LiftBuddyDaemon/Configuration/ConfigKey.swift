/// One setting of liftbuddyd: its config-file key, its command-line flag,
/// and whether SIGHUP applies it. The one table of keys: the loader names
/// flags from it in errors, `--help` and the example file list them in its
/// order, the reload service asks it what needs a restart.
public struct ConfigKey: Sendable, Equatable {
  public var name: String
  /// The flag, where it is not the key with dashes (`load_kg` is `--load`);
  /// nil: the key has no flag, only a config-file line.
  public var flag: String?
  public var reloadable: Bool

  public static let all: [ConfigKey] = [
    .init("source"), .init("socket"), .init("output_dir"), .init("record"), .init("speed"),
    .init("loop"), .init("exercise", reloadable: true),
    .init("load_kg", flag: "--load", reloadable: true), .init("baud"), .init("socket_mode"),
    .init("socket_group"), .init("log_level", reloadable: true),
    .init("sample_rate_hz", flag: nil, reloadable: true), .init("smoother", flag: nil),
    .init("smoothing_window_s", flag: nil), .init("set_rest_s", flag: nil),
    .init("min_rom_cm", flag: nil), .init("nominal_rate_hz", flag: nil),
    // The web view (docs/web.md).
    .init("http"), .init("http_pairing_code", flag: nil), .init("http_root", flag: nil),
    // The gym's MQTT broker (docs/mqtt.md).
    .init("mqtt"), .init("rack"), .init("mqtt_prefix"), .init("mqtt_username"),
    .init("mqtt_password_file"), .init("mqtt_tls"), .init("mqtt_ca_file"),
    .init("mqtt_cert_file"),
    .init("mqtt_key_file"), .init("mqtt_commands"), .init("mqtt_samples"),
    .init("coach"),
  ]

  init(_ name: String, reloadable: Bool = false) {
    self.init(name, flag: "--" + name.replacing("_", with: "-"), reloadable: reloadable)
  }

  init(_ name: String, flag: String?, reloadable: Bool = false) {
    self.name = name
    self.flag = flag
    self.reloadable = reloadable
  }

  public static func named(_ name: String) -> ConfigKey? { all.first { $0.name == name } }

  /// How to name a key given on the command line.
  public static func flag(for name: String) -> String {
    named(name)?.flag ?? "--" + name.replacing("_", with: "-")
  }
}
