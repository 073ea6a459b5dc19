import LiftBuddyCore
import Logging
import ServiceLifecycle

/// SIGHUP: reads the config file again and applies what can change while
/// running — `exercise` and `load_kg` (for the next set), `log_level` and
/// `sample_rate_hz`. Other keys are read, checked and reported as needing a
/// restart. A file that no longer parses is reported and changes nothing.
public struct ReloadService: Service {
  private let loader: ConfigurationLoader
  private let running: DaemonConfiguration
  private let pipeline: Pipeline
  private let levelBox: LogLevelBox
  private let notifier: SystemdNotifier
  private let logger: Logger

  public init(
    loader: ConfigurationLoader, running: DaemonConfiguration, pipeline: Pipeline,
    levelBox: LogLevelBox,
    notifier: SystemdNotifier, logger: Logger
  ) {
    self.loader = loader
    self.running = running
    self.pipeline = pipeline
    self.levelBox = levelBox
    self.notifier = notifier
    self.logger = logger
  }

  public func run() async throws {
    for await _ in await HangupSignal.stream().cancelOnGracefulShutdown() {
      await reload()
    }
  }

  func reload() async {
    notifier.reloading(status: "reloading configuration")
    defer { notifier.reloaded(status: "configuration reloaded") }
    let loaded: ConfigurationLoader.Loaded
    do {
      loaded = try loader.load()
    } catch {
      logger.error("reload failed, keeping the running configuration: \(error)")
      return
    }
    let new = loaded.configuration
    let explicit = loaded.fromFile.union(loaded.fromFlags)
    let (currentExercise, currentLoad) = pipeline.nextSet()
    let exercise = explicit.contains("exercise") ? new.exercise : currentExercise
    let loadKg = explicit.contains("load_kg") ? new.loadKg : currentLoad
    levelBox.level = new.logLevel
    await pipeline.reload(exercise: exercise, loadKg: loadKg, sampleRateHz: new.sampleRateHz)
    let needRestart = Self.restartOnlyChanges(from: running, to: new)
    if !needRestart.isEmpty {
      logger.warning(
        "changed keys take effect after a restart: \(needRestart.joined(separator: ", "))")
    }
    logger.notice(
      "configuration reloaded",
      metadata: [
        "exercise": "\(exercise?.rawValue ?? "unknown")",
        "load_kg": "\(loadKg.map { "\($0)" } ?? "unknown")",
        "log_level": "\(new.logLevel)",
      ])
  }

  static func restartOnlyChanges(from a: DaemonConfiguration, to b: DaemonConfiguration) -> [String]
  {
    var keys: [String] = []
    if a.source != b.source { keys.append("source") }
    if a.socketPath != b.socketPath { keys.append("socket") }
    if a.outputDir != b.outputDir { keys.append("output_dir") }
    if a.recordPath != b.recordPath { keys.append("record") }
    if a.speed != b.speed { keys.append("speed") }
    if a.loop != b.loop { keys.append("loop") }
    if a.baud != b.baud { keys.append("baud") }
    if a.socketMode != b.socketMode { keys.append("socket_mode") }
    if a.socketGroup != b.socketGroup { keys.append("socket_group") }
    if a.analyzer != b.analyzer { keys.append("analyzer settings") }
    let mqtt: [(String, (DaemonConfiguration) -> AnyHashable?)] = [
      ("mqtt", { $0.mqtt?.description }), ("rack", { $0.rack }), ("mqtt_prefix", { $0.mqttPrefix }),
      ("mqtt_username", { $0.mqttUsername }), ("mqtt_password_file", { $0.mqttPasswordFile }),
      ("mqtt_tls", { $0.mqttTLS }), ("mqtt_ca_file", { $0.mqttCAFile }),
      ("mqtt_cert_file", { $0.mqttCertFile }), ("mqtt_key_file", { $0.mqttKeyFile }),
      ("mqtt_commands", { $0.mqttCommands }), ("mqtt_samples", { $0.mqttSamples }),
    ]
    keys += mqtt.filter { $0.1(a) != $0.1(b) }.map(\.0)
    return keys
  }
}
