import Foundation
import LiftBuddyCore
import Logging
import NIOPosix
import ServiceLifecycle

/// liftbuddyd from configuration to exit: builds the source, the pipeline
/// and its sinks, the socket server, and runs them as services until the
/// source ends (a replay) or SIGTERM/SIGINT arrives.
public struct DaemonRunner {
  /// sysexits(3) EX_CONFIG: the unit's `RestartPreventExitStatus=78` keeps
  /// systemd from restarting a daemon that cannot start as configured.
  public static let exitConfigurationError: Int32 = 78
  /// The source or an output cannot be set up (EX_UNAVAILABLE-like).
  public static let exitUnavailable: Int32 = 69

  private let loader: ConfigurationLoader
  private let levelBox: LogLevelBox
  private let logger: Logger
  private let environment: [String: String]

  public init(
    loader: ConfigurationLoader, levelBox: LogLevelBox, logger: Logger,
    environment: [String: String]
  ) {
    self.loader = loader
    self.levelBox = levelBox
    self.logger = logger
    self.environment = environment
  }

  /// The sinks every event goes to, in this order; the socket server is
  /// added once it listens. A new sink (see `EventSink`) is added here.
  static func sinks(
    writer: ReportFileWriter, notifier: SystemdNotifier, logger: Logger, statusSuffix: String = "",
    mqtt: MQTTSink? = nil
  ) -> [any EventSink] {
    [
      LogSink(logger: logger), writer, SystemdStatusSink(notifier: notifier, suffix: statusSuffix),
    ] + (mqtt.map { [$0] } ?? [])
  }

  /// Runs the daemon; returns its exit status.
  public func run() async -> Int32 {
    let loaded: ConfigurationLoader.Loaded
    do {
      loaded = try loader.load()
    } catch {
      logger.critical("\(error)")
      return Self.exitConfigurationError
    }
    let configuration = loaded.configuration
    levelBox.level = configuration.logLevel
    let notifier = SystemdNotifier()

    let source: any ClipSource
    do {
      source = try SourceFactory.make(configuration.source!, configuration: configuration)
    } catch {
      logger.critical("\(error)")
      return Self.exitUnavailable
    }
    if configuration.source?.isLive == true, configuration.loop || configuration.speed != .factor(1)
    {
      logger.warning("speed and loop apply to replay sources only; ignored for \(source.name)")
    }

    // The session's exercise and load: flags, then the recording's header,
    // then the config file.
    let exercise =
      loaded.fromFlags.contains("exercise")
      ? configuration.exercise : (source.hints.exercise ?? configuration.exercise)
    let loadKg =
      loaded.fromFlags.contains("load_kg")
      ? configuration.loadKg : (source.hints.loadKg ?? configuration.loadKg)

    let outputDir = configuration.resolvedOutputDir(environment: environment)
    let writer: ReportFileWriter
    do {
      writer = try ReportFileWriter(directory: outputDir, logger: logger)
    } catch {
      logger.critical("output_dir \(outputDir): cannot use it as the report directory: \(error)")
      return Self.exitConfigurationError
    }
    // The broker's secrets are read now: a bad one is a failed start.
    let mqttConfiguration: MQTTConfiguration?
    do {
      mqttConfiguration = try MQTTConfiguration.make(
        from: configuration, environment: environment, source: source.name,
        spoolDirectory: outputDir)
    } catch {
      logger.critical("\(error)")
      return Self.exitConfigurationError
    }
    let isMaxSpeed = configuration.speed == .max && !(configuration.source?.isLive ?? true)
    let pairingCode = configuration.http.map { _ in configuration.httpPairingCode ?? .random() }
    var recorder: StreamRecorder?
    if let path = configuration.recordPath {
      do {
        recorder = try StreamRecorder(
          path: path, source: source.name, startedAtUnix: SourceClock.startingNow().wallClockOrigin,
          exercise: exercise, loadKg: loadKg, logger: logger)
      } catch {
        logger.critical(
          "record \(path): cannot record there: \(error) (the directory must exist; a symlink is refused)"
        )
        return Self.exitConfigurationError
      }
    }
    // Connects on its own thread; a broker that is away is a log line, not a failed start.
    let mqtt = mqttConfiguration.map { MQTTSink(configuration: $0, logger: logger) }
    // One thread serves the socket's and the web view's clients alike; with
    // a clip (serial or BLE) it also reads the port or the ATT socket and
    // runs the pipeline's loop, so that a rep reaches the subscribers with no
    // other thread to wake (Pipeline.Options.eventLoop, BENCHMARKS.md issue 9).
    // A replay reads its file on a thread of its own, and its loop stays on
    // the pool.
    let eventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let pipeline = Pipeline(
      source: source, configuration: configuration.analyzer, exercise: exercise, loadKg: loadKg,
      sinks: Self.sinks(
        writer: writer, notifier: notifier, logger: logger,
        statusSuffix: pairingCode.map { "; web pairing code \($0)" } ?? "", mqtt: mqtt),
      options: .init(
        sampleRateHz: isMaxSpeed ? nil : configuration.sampleRateHz,
        tick: isMaxSpeed ? nil : .milliseconds(500), recorder: recorder, reportWriter: writer,
        eventLoop: source is SerialSource || source is BLESource ? eventLoopGroup.next() : nil),
      logger: logger)

    mqtt?.accept(commandsFor: pipeline)

    let socketPath = configuration.resolvedSocketPath(environment: environment)
    let server = SocketServer(
      configuration: SocketConfiguration(
        path: socketPath, mode: mode_t(configuration.socketMode), group: configuration.socketGroup,
        sampleMaxHz: configuration.sampleRateHz),
      control: pipeline, logger: logger, eventLoopGroup: eventLoopGroup)
    do {
      try await server.start()
    } catch {
      logger.critical("cannot listen on \(socketPath): \(error)")
      try? await eventLoopGroup.shutdownGracefully()
      return Self.exitUnavailable
    }
    pipeline.add(sink: SocketSink(server: server))
    var web: WebServer?
    var coach: CoachFeed?
    if let address = configuration.http, let pairingCode {
      var webConfiguration = WebConfiguration(
        address: address, pairingCode: pairingCode,
        siteRoot: configuration.httpRoot ?? WebServer.defaultSiteRoot(),
        reportDirectory: outputDir)
      webConfiguration.roomView = configuration.coach
      let webServer = WebServer(
        configuration: webConfiguration, control: pipeline, logger: logger,
        eventLoopGroup: eventLoopGroup)
      do {
        try await webServer.start()
      } catch {
        logger.critical("cannot serve the web view on \(address): \(error)")
        await server.shutdown(finalStatus: nil)
        try? await eventLoopGroup.shutdownGracefully()
        return Self.exitUnavailable
      }
      pipeline.add(sink: WebSink(server: webServer))
      web = webServer
      // The coach's room view: every rack on the broker, this one included.
      if configuration.coach, let mqttConfiguration {
        coach = CoachFeed(
          configuration: CoachConfiguration(following: mqttConfiguration),
          logger: logger, update: webServer.publishRoom)
      }
    }

    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
      .init(
        service: PipelineService(
          pipeline: pipeline, notifier: notifier,
          readyStatus: "reading \(source.name); reports to \(outputDir)"),
        successTerminationBehavior: .gracefullyShutdownGroup,
        failureTerminationBehavior: .gracefullyShutdownGroup, serviceName: "pipeline"),
      .init(
        service: ReloadService(
          loader: loader, running: configuration, pipeline: pipeline, levelBox: levelBox,
          notifier: notifier,
          logger: logger), serviceName: "reload"),
    ]
    if let interval = notifier.watchdogInterval() {
      services.append(
        .init(
          service: WatchdogService(pipeline: pipeline, notifier: notifier, interval: interval),
          serviceName: "watchdog"))
    }
    var groupConfiguration = ServiceGroupConfiguration(
      services: services, gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [],
      logger: logger)
    // A service that has not stopped 1.5 s after SIGTERM is cancelled (ours all
    // stop on cancellation). No cancellation deadline: swift-service-lifecycle
    // enforces one with fatalError from a timer task that is only cancelled
    // after the group returns, so in a starved process (two cores shared with a
    // build, a stalling SD card) it can fire after the services have finished
    // and crash the daemon while it writes the last set. systemd's
    // TimeoutStopSec (5 s, then SIGKILL) is the hard bound.
    groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(1500)
    groupConfiguration.maximumCancellationDuration = nil

    logger.notice(
      "liftbuddyd started",
      metadata: [
        "source": "\(source.name)", "output_dir": "\(outputDir)", "socket": "\(socketPath)",
        "exercise": "\(exercise?.rawValue ?? "unknown")",
        "load_kg": "\(loadKg.map { "\($0)" } ?? "unknown")",
      ])
    var status: Int32 = 0
    do {
      try await ServiceGroup(configuration: groupConfiguration).run()
    } catch {
      logger.error("stopped on error: \(error)")
      status = 1
    }
    notifier.stopping(status: "stopping")
    await recorder?.close()
    await writer.close()
    await mqtt?.close()
    await coach?.close()
    await server.shutdown(finalStatus: await pipeline.currentStatus())
    await web?.shutdown()
    try? await eventLoopGroup.shutdownGracefully()
    logger.notice("liftbuddyd stopped")
    return status
  }
}
