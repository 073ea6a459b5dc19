import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A real Mosquitto broker (Debian's `mosquitto`) on a loopback port of its
/// own, anonymous and without persistence, for the MQTT tests.
final class MQTTTestBroker {
  /// Where Debian puts the broker; nil when it is not installed (the tests
  /// then skip, saying so).
  static let executable: String? = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let subscriber: String? = ["/usr/bin/mosquitto_sub"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let publisher: String? = ["/usr/bin/mosquitto_pub"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static var isAvailable: Bool { executable != nil && subscriber != nil && publisher != nil }

  let port: Int
  let process: DaemonChild

  /// Starts the broker and waits until it accepts connections; `settings`
  /// are the listener's lines of `mosquitto.conf` (password file, ACL, TLS).
  init(in dir: ScratchDirectory, port: Int? = nil, settings: String = "allow_anonymous true\n")
    async throws
  {
    let port = port ?? freeLoopbackPort()
    self.port = port
    let config = dir.file("mosquitto-\(port).conf")
    try "listener \(port) 127.0.0.1\n\(settings)persistence false\n".write(
      toFile: config, atomically: true, encoding: .utf8)
    process = try DaemonChild(
      try #require(Self.executable), ["-c", config], in: dir, name: "mosquitto-\(port)")
    let up = await waitUntil(timeout: 20) { canConnect(port: port) }
    try #require(up, "mosquitto did not listen on \(port): \(process.stderr)")
  }

  /// SIGKILL: a child of the test process may inherit SIGTERM blocked.
  func stop() async {
    process.signal(SIGKILL)
    _ = await process.wait(timeout: 10)
  }
}

/// `mosquitto_sub` on a topic filter, every message recorded with its
/// retained flag and its payload's exact bytes.
final class MQTTTestSubscriber {
  struct Message: Equatable {
    var retained: Bool
    var topic: String
    var payload: [UInt8]
    var text: String { String(decoding: payload, as: UTF8.self) }
    var json: [String: Any]? {
      try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
    }
  }

  let process: DaemonChild
  let port: Int

  /// A topic under `liftbuddy/#` that no daemon publishes on, for `waitUntilSubscribed`.
  static let probeTopic = "liftbuddy/probe/ready"

  /// Subscribes to `filter`; call `waitUntilSubscribed` before anything is
  /// published that must not be missed (retained messages come anyway).
  /// `mosquitto_sub`/`mosquitto_pub` options for a broker that wants
  /// credentials or TLS (`-u`, `-P`, `--cafile` …).
  let options: [String]

  init(
    in dir: ScratchDirectory, port: Int, filter: String = "liftbuddy/#", name: String = "sub",
    options: [String] = []
  ) throws {
    self.port = port
    self.options = options
    process = try DaemonChild(
      try #require(MQTTTestBroker.subscriber),
      ["-h", "127.0.0.1", "-p", "\(port)", "-F", "%r %t %x", "-t", filter] + options, in: dir,
      name: name)
  }

  /// Publishes one message with `mosquitto_pub` (the subscriber's options).
  func send(_ text: String, on topic: String) throws {
    let pub = Process()
    pub.executableURL = URL(fileURLWithPath: try #require(MQTTTestBroker.publisher))
    pub.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-m", text] + options
    try pub.run()
    pub.waitUntilExit()
  }

  /// Publishes on `probeTopic` (which `filter` must match) until the
  /// subscriber receives it: then the subscription is in force.
  func waitUntilSubscribed() async throws {
    let publisher = try #require(MQTTTestBroker.publisher)
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      let pub = Process()
      pub.executableURL = URL(fileURLWithPath: publisher)
      pub.arguments =
        ["-h", "127.0.0.1", "-p", "\(port)", "-t", Self.probeTopic, "-m", "ready"] + options
      try pub.run()
      pub.waitUntilExit()
      if await waitUntil(timeout: 0.5, { allMessages.contains { $0.topic == Self.probeTopic } }) {
        return
      }
    }
    Issue.record("mosquitto_sub did not subscribe: \(process.stdout)\(process.stderr)")
  }

  /// Messages so far, in arrival order, the probes left out.
  var messages: [Message] { allMessages.filter { $0.topic != Self.probeTopic } }

  private var allMessages: [Message] {
    process.stdout.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count >= 2, fields[0] == "0" || fields[0] == "1" else { return nil }
      let hex = fields.count == 3 ? Array(fields[2].utf8) : []
      guard hex.count % 2 == 0 else { return nil }
      let bytes = stride(from: 0, to: hex.count, by: 2).compactMap {
        UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)
      }
      return Message(retained: fields[0] == "1", topic: String(fields[1]), payload: bytes)
    }
  }

  func messages(on topic: String) -> [Message] { messages.filter { $0.topic == topic } }

  /// SIGKILL: a child of the test process may inherit SIGTERM blocked.
  func stop() async {
    process.signal(SIGKILL)
    _ = await process.wait(timeout: 10)
  }
}

/// A loopback TCP port nobody uses right now, below the kernel's ephemeral
/// range (`ip_local_port_range`, 32768–60999 by default): the tests stop a
/// server and start another on the same port, and a port from that range
/// may meanwhile become the source port of some outgoing connection (even
/// a daemon's own retry, connected to itself), which a listener cannot
/// bind over.
func freeLoopbackPort() -> Int {
  for _ in 0..<1000 {
    let port = Int.random(in: 20000..<32768)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    if bound { return port }
  }
  return 0
}

/// Whether something accepts a TCP connection on 127.0.0.1:`port`.
func canConnect(port: Int) -> Bool {
  let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  defer { close(fd) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  address.sin_port = UInt16(port).bigEndian
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
    }
  }
}
