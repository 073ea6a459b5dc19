import ArgumentParser
import Foundation
import LiftBuddyCLI
import LiftBuddyDaemon
import Logging

/// `liftbuddyd`: the long-running daemon beside the rack. Every option can
/// also be set in the config file under the same name with underscores
/// (`--output-dir` is `output_dir`); flags win over the file.
@main
struct LiftBuddyDaemonCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "liftbuddyd",
    abstract:
      "Read a barbell clip, analyse every set, write one JSON report per set, serve clients on a Unix socket.",
    discussion: """
      Every option can also be set in the config file (--config), one 'key = value' per line, \
      with the option's name in snake case (output_dir, load_kg, socket_mode …); flags override \
      the file. SIGHUP re-reads the file and applies exercise, load_kg, log_level and \
      sample_rate_hz at once (for the next set); other keys need a restart. SIGTERM or SIGINT \
      closes the set in progress, writes its report and exits. See docs/daemon.md and \
      docs/configuration.md.
      """
  )

  @Option(
    help: ArgumentHelp(
      "Where the clip is: serial:/dev/ttyUSB0, serial:auto (the first clip udev knows), ble:ADDRESS, or replay:FILE (a recorded stream).",
      valueName: "source"))
  var source: String?

  @Option(
    help: ArgumentHelp(
      "Unix socket for clients (default: $RUNTIME_DIRECTORY/liftbuddy.sock under systemd, else ./liftbuddy.sock).",
      valueName: "path"))
  var socket: String?

  @Option(
    name: .customLong("output-dir"),
    help: ArgumentHelp(
      "Directory for the per-set JSON reports, <report id>.json (default: $STATE_DIRECTORY/lifts under systemd, else ./lifts).",
      valueName: "dir"))
  var outputDir: String?

  @Option(
    help: ArgumentHelp(
      "Also record every received line, with its receive time, to this file in the recorded-stream format.",
      valueName: "file"))
  var record: String?

  // `.unconditional`: `--speed -1` is a bad speed, not a missing one.
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "Replay pace: 1 is the recording's own pace, N is N times faster, max is as fast as possible (replay sources only; default 1).",
      valueName: "N|max"))
  var speed: String?

  @Flag(help: "Start a replay over when it ends (replay sources only).")
  var loop = false

  @Option(help: ArgumentHelp("Config file of 'key = value' lines.", valueName: "file"))
  var config: String?

  @Option(
    help: ArgumentHelp(
      "Exercise of the next set: squat, bench_press, deadlift, overhead_press or unknown (default: the recording's header, else unknown).",
      valueName: "name"))
  var exercise: String?

  @Option(
    name: .customLong("load"), parsing: .unconditional,
    help: ArgumentHelp(
      "Load on the bar for the next set, in kg (default: the recording's header, else unknown).",
      valueName: "kg"))
  var load: String?

  @Option(
    help: ArgumentHelp(
      "Serial baud rate (default 115200, 8N1, as the clip's firmware sends).", valueName: "N"))
  var baud: String?

  @Option(
    name: .customLong("socket-mode"),
    help: ArgumentHelp("Permissions of the socket, in octal (default 0660).", valueName: "mode"))
  var socketMode: String?

  @Option(
    name: .customLong("socket-group"),
    help: ArgumentHelp(
      "Group that owns the socket, so its members may connect (default: the daemon's group).",
      valueName: "name"))
  var socketGroup: String?

  @Option(
    help: ArgumentHelp(
      "Serve the web view (live page, reports, history, controls) on this address, e.g. 0.0.0.0:8080 (default: off; see docs/web.md).",
      valueName: "address:port"))
  var http: String?

  @Option(
    help: ArgumentHelp(
      "Publish every rep, set, report and status to this MQTT broker, e.g. broker.local or 192.168.1.10:1883 (default: off; port 1883; see docs/mqtt.md).",
      valueName: "host[:port]"))
  var mqtt: String?

  @Option(
    help: ArgumentHelp(
      "This rack's name in the MQTT topics, <prefix>/<rack>/… (default: the host name).",
      valueName: "name"))
  var rack: String?

  @Option(
    name: .customLong("mqtt-prefix"),
    help: ArgumentHelp(
      "First level(s) of the MQTT topics (default liftbuddy).", valueName: "prefix"))
  var mqttPrefix: String?

  @Flag(
    help:
      "Also follow every rack on the MQTT broker and serve the coach's room view at /room on the web view (needs --mqtt and --http; see docs/mqtt.md)."
  )
  var coach = false

  @OptionGroup(title: "The broker's way in")
  var mqttAccess: MQTTAccessOptions

  @Flag(
    name: .customLong("mqtt-commands"),
    help:
      "Take set, start_set and end_set from <prefix>/<rack>/cmd; answers on <prefix>/<rack>/reply (the broker's ACL decides who may send)."
  )
  var mqttCommands = false

  @Flag(
    name: .customLong("mqtt-samples"),
    help:
      "Also publish the live sample stream on <prefix>/<rack>/sample, at most sample_rate_hz per second."
  )
  var mqttSamples = false

  @Option(
    name: .customLong("log-level"),
    help: ArgumentHelp(
      "trace, debug, info, notice, warning, error or critical (default info).", valueName: "level"))
  var logLevel: String?

  /// The flags that were given, as config keys, so that they go through the
  /// same validation as the file and override it.
  var flagValues: [(key: String, value: String)] {
    var flags: [(key: String, value: String)] = []
    func add(_ key: String, _ value: String?) { if let value { flags.append((key, value)) } }
    add("source", source)
    add("socket", socket)
    add("output_dir", outputDir)
    add("record", record)
    add("speed", speed)
    if loop { flags.append(("loop", "true")) }
    add("exercise", exercise)
    add("load_kg", load)
    add("baud", baud)
    add("socket_mode", socketMode)
    add("socket_group", socketGroup)
    add("log_level", logLevel)
    add("http", http)
    add("mqtt", mqtt)
    add("rack", rack)
    add("mqtt_prefix", mqttPrefix)
    flags += mqttAccess.keyValues
    if mqttCommands { flags.append(("mqtt_commands", "true")) }
    if mqttSamples { flags.append(("mqtt_samples", "true")) }
    if coach { flags.append(("coach", "true")) }
    return flags
  }

  func run() async throws {
    let levelBox = LogLevelBox(.info)
    LoggingSystem.bootstrap { JournalLogHandler(label: $0, level: levelBox) }
    let logger = Logger(label: "liftbuddyd")
    let runner = DaemonRunner(
      loader: ConfigurationLoader(path: config, flags: flagValues), levelBox: levelBox,
      logger: logger,
      environment: ProcessInfo.processInfo.environment)
    let status = await runner.run()
    if status != 0 { throw ExitCode(status) }
  }
}
