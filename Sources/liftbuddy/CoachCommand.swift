import ArgumentParser
import Foundation
import LiftBuddyCLI
import LiftBuddyDaemon
import Logging
import UnixSignals

/// `liftbuddy coach`: the coach's room view, without a clip. Follows every
/// rack on the gym's MQTT broker and serves the room page, as a daemon with
/// `coach = true` does beside its own rack.
struct CoachCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "coach",
    abstract: "Serve the coach's room view: every rack on the MQTT broker at a glance.",
    discussion: """
      Subscribes to <prefix>/+/set, rep, rep_provisional, rep_withdrawn, lift and \
      status on the broker the racks' liftbuddyd publish to (--mqtt there), and serves \
      a page showing each rack's current set, last rep, velocity loss and whether it is \
      online. Open http://ADDRESS:PORT/ on any phone or laptop. See docs/mqtt.md.
      """)

  @Option(help: ArgumentHelp("The racks' MQTT broker.", valueName: "host[:port]"))
  var mqtt: String

  @Option(help: ArgumentHelp("The racks' topic prefix (their mqtt_prefix).", valueName: "prefix"))
  var prefix = "liftbuddy"

  @OptionGroup(title: "The broker's way in (the coach's own user; docs/mqtt.md)")
  var mqttAccess: MQTTAccessOptions

  @Option(
    help: ArgumentHelp(
      "Serve the room view here; 0.0.0.0:8080 for the gym's network.", valueName: "address:port"))
  var listen = "127.0.0.1:8080"

  @Option(
    name: .customLong("http-root"),
    help: ArgumentHelp("The page's files (default: beside the executable).", valueName: "dir"))
  var httpRoot: String?

  func validate() throws {
    guard MQTTBroker(parsing: mqtt) != nil else {
      throw ValidationError(
        "--mqtt: expected HOST or HOST:PORT such as broker.local or 192.168.1.10:1883, got '\(mqtt)'"
      )
    }
    guard MQTTTopics.isValidPrefix(prefix) else {
      throw ValidationError(
        "--prefix: expected topic levels of letters, digits, '-', '_' or '.' separated by '/', got '\(prefix)'"
      )
    }
    guard WebAddress(parsing: listen) != nil else {
      throw ValidationError(
        "--listen: expected ADDRESS:PORT such as 127.0.0.1:8080, got '\(listen)'")
    }
  }

  /// The broker and the way in, read and checked as the daemon reads its
  /// own (the same keys, the same secret-file rules, one-line errors).
  func coachConfiguration() throws -> CoachConfiguration {
    var settings = DaemonConfiguration()
    do {
      for (key, value) in [("mqtt", mqtt), ("mqtt_prefix", prefix)] + mqttAccess.keyValues {
        try settings.set(key, to: value)
      }
      let mqtt = try MQTTConfiguration.make(
        from: settings, environment: ProcessInfo.processInfo.environment, source: "coach",
        spoolDirectory: nil)
      return CoachConfiguration(following: mqtt!)
    } catch {
      throw ValidationError("\(error)")
    }
  }

  func run() async throws {
    let address = WebAddress(parsing: listen)!
    let server = CoachServer(
      coach: try coachConfiguration(), listen: address,
      siteRoot: httpRoot ?? WebServer.defaultSiteRoot(), logger: Logger(label: "liftbuddy-coach"))
    do {
      try await server.start()
    } catch {
      throw ValidationError("cannot serve the room view on \(address): \(error)")
    }
    for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) { break }
    await server.shutdown()
  }
}
