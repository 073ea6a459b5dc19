import ArgumentParser

/// How a program gets into the gym's MQTT broker: the flags `liftbuddyd`
/// (a rack) and `liftbuddy coach` share, with the config keys they stand
/// for, so both are read by the same rules (`MQTTConfiguration.make`).
/// Secrets only ever as files.
public struct MQTTAccessOptions: ParsableArguments {
  @Option(
    name: .customLong("mqtt-username"),
    help: ArgumentHelp(
      "The broker's user name (its ACL's %u; docs/mqtt.md).", valueName: "name"))
  public var username: String?

  @Option(
    name: .customLong("mqtt-password-file"),
    help: ArgumentHelp(
      "File whose first line is the broker's password, readable by this user alone (default: $CREDENTIALS_DIRECTORY/mqtt-password when systemd passes it). Never the password itself.",
      valueName: "file"))
  public var passwordFile: String?

  @Flag(
    name: .customLong("mqtt-tls"),
    help:
      "TLS to the broker, checked against the system's CAs (on by itself with --mqtt-ca-file or --mqtt-cert-file)."
  )
  public var tls = false

  @Option(
    name: .customLong("mqtt-ca-file"),
    help: ArgumentHelp(
      "CA certificate to check the broker's with (turns TLS on).", valueName: "file"))
  public var caFile: String?

  @Option(
    name: .customLong("mqtt-cert-file"),
    help: ArgumentHelp("A client certificate (turns TLS on).", valueName: "file"))
  public var certFile: String?

  @Option(
    name: .customLong("mqtt-key-file"),
    help: ArgumentHelp(
      "The client certificate's key, readable by this user alone (default: $CREDENTIALS_DIRECTORY/mqtt-key).",
      valueName: "file"))
  public var keyFile: String?

  public init() {}

  /// The given flags as (config key, value) pairs.
  public var keyValues: [(String, String)] {
    var pairs: [(String, String?)] = [
      ("mqtt_username", username), ("mqtt_password_file", passwordFile),
      ("mqtt_ca_file", caFile), ("mqtt_cert_file", certFile), ("mqtt_key_file", keyFile),
    ]
    if tls { pairs.append(("mqtt_tls", "true")) }
    return pairs.compactMap { key, value in value.map { (key, $0) } }
  }
}
