import BlueZ
import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

@testable import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// BLESource's connect / subscribe / stream / reconnect loop, with the radio
/// replaced by a socketpair and a clip that answers the GATT client's exact
/// requests with bytes from the Core Spec layouts (Vol 3 Part F §3.4).
@Suite(.timeLimit(.minutes(1))) struct DiscoveryBLESourceTests {
  /// A Nordic UART clip: service 0x0001–0xFFFF, TX declaration 0x0002, value 0x0003, CCCD 0x0004.
  static let nusTX: [UInt8] = [
    0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x03, 0x00, 0x40, 0x6E,
  ]
  static let nusService: [UInt8] = [
    0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
  ]
  static let answers: [[UInt8]: [UInt8]] = [
    [0x02, 0xF7, 0x00]: [0x03, 0x17, 0x00],
    [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28]: [0x11, 0x14, 0x01, 0x00, 0xFF, 0xFF] + nusService,
    [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28]: [0x09, 0x15, 0x02, 0x00, 0x10, 0x03, 0x00] + nusTX,
    [0x08, 0x03, 0x00, 0xFF, 0xFF, 0x03, 0x28]: [0x01, 0x08, 0x03, 0x00, 0x0A],
    [0x04, 0x04, 0x00, 0xFF, 0xFF]: [0x05, 0x01, 0x04, 0x00, 0x02, 0x29],
    [0x04, 0x05, 0x00, 0xFF, 0xFF]: [0x01, 0x04, 0x05, 0x00, 0x0A],
    [0x12, 0x04, 0x00, 0x01, 0x00]: [0x13],
  ]

  /// One connection's behaviour: what to notify, then to indicate (each
  /// indication waits for its confirmation), after the CCCD write; then hang
  /// up or stay.
  struct Visit: Sendable {
    var notifications: [String]
    var indications: [String] = []
    var hangUp: Bool
  }

  /// Hands out one socketpair per connection attempt, served by a thread that
  /// plays the next visit; records the addresses the source connected to.
  final class FakeRadio: Sendable {
    private let visits: Mutex<[Visit]>
    let dialled = Mutex<[String]>([])
    /// Handle Value Confirmations received, over all connections.
    let confirmations = Mutex(0)

    init(_ visits: [Visit]) { self.visits = Mutex(visits) }

    func connect(_ address: BluetoothAddress, _ type: LEAddressType) throws -> AttBearer {
      dialled.withLock { $0.append("\(address)/\(type.rawValue)") }
      guard let visit = visits.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
        throw BluetoothError.system(.connect, errno: ETIMEDOUT)
      }
      var fds: [Int32] = [0, 0]
      guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0 else {
        throw BluetoothError.system(.connect, errno: errno)
      }
      let server = AttBearer(fileDescriptor: fds[1])
      Thread { self.serve(server, visit) }.start()
      return AttBearer(fileDescriptor: fds[0])
    }

    private func serve(_ bearer: AttBearer, _ visit: Visit) {
      while true {
        guard let request = try? bearer.receive(timeoutMilliseconds: 100) else { continue }
        guard let answer = DiscoveryBLESourceTests.answers[request] else {
          try? bearer.send([0x01, request[0], 0x00, 0x00, 0x06])  // Request Not Supported
          continue
        }
        try? bearer.send(answer)
        guard request[0] == 0x12 else { continue }
        for line in visit.notifications { try? bearer.send([0x1B, 0x03, 0x00] + Array(line.utf8)) }
        for line in visit.indications {
          try? bearer.send([0x1D, 0x03, 0x00] + Array(line.utf8))
          // One indication at a time (Vol 3 Part F §3.4.7.2): a client that
          // does not confirm is cut off, as a real server would.
          guard (try? bearer.receive(timeoutMilliseconds: 2000)) == [0x1E] else { return }
          confirmations.withLock { $0 += 1 }
        }
        if visit.hangUp { return }
        // Stay connected until the client closes its end.
        while (try? bearer.receive(timeoutMilliseconds: 100)) != nil {}
        return
      }
    }
  }

  static func scanned(_ text: String, random: Bool) -> ScannedDevice {
    ScannedDevice(
      AdvertisingReport(
        eventType: 0x00, hciAddressType: random ? 0x01 : 0x00, address: BluetoothAddress(text)!,
        data: AdvertisingData([0x0A, 0x09] + Array("LiftBuddy".utf8)), rssi: -60))
  }

  static let adapter = HciAdapter(id: 0, address: BluetoothAddress("00:AA:01:00:00:00")!)

  @Test func parsesItsAddress() throws {
    #expect(
      try BLESource(address: "C0:11:22:33:44:55/random").name == "ble:C0:11:22:33:44:55/random")
    #expect(try BLESource(address: "auto").name == "ble:auto")
    #expect(try BLESource(address: "hci1/auto").name == "ble:hci1/auto")
    #expect(
      try BLESource(address: "hci0/C0:11:22:33:44:55").name == "ble:hci0/C0:11:22:33:44:55/public")
    #expect(throws: BluetoothError.invalidTarget("ble:C0:11:22")) {
      try BLESource(address: "C0:11:22")
    }
  }

  /// ble:auto scans once, connects, streams, loses the link, backs off, and
  /// reconnects to the same address without scanning again.
  @Test func streamsReconnectsAndRemembersTheScannedClip() async throws {
    let radio = FakeRadio([
      Visit(notifications: ["s:5", "2\na:1.5:-0", ".3\n"], hangUp: true),
      Visit(notifications: ["s:53\n"], hangUp: false),
    ])
    let scans = Mutex(0)
    let source = BLESource(
      target: .auto, backoff: Backoff(initial: 0.01, maximum: 0.02),
      transactionTimeout: .seconds(5),
      chooseAdapter: { _ in Self.adapter },
      connect: { address, type, _ in try radio.connect(address, type) },
      find: { _ in
        scans.withLock { $0 += 1 }
        return Self.scanned("C0:11:22:33:44:55", random: true)
      })

    var connections: [String] = []
    var bytes: [[UInt8]] = [[], []]
    var statuses: [SourceStatus] = []
    for await event in source.events(clock: .startingNow()) {
      switch event {
      case .bytes(let chunk, _): bytes[max(0, connections.count - 1)] += chunk
      case .status(let status):
        statuses.append(status)
        if case .connected(let detail) = status { connections.append(detail) }
      case .recorded: Issue.record("a live source sends no recorded bytes")
      }
      if bytes[1] == Array("s:53\n".utf8) { break }
    }

    #expect(String(decoding: bytes[0], as: UTF8.self) == "s:52\na:1.5:-0.3\n")
    #expect(String(decoding: bytes[1], as: UTF8.self) == "s:53\n")
    #expect(connections.count == 2)
    #expect(
      connections.first
        == "ble:C0:11:22:33:44:55/random via hci0 (00:AA:01:00:00:00) Nordic UART characteristic 6E400003-B5A3-F393-E0A9-E50E24DCCA9E, ATT MTU 23"
    )
    #expect(
      statuses.dropFirst().prefix(2)
        == [
          .lost(
            reason:
              "the clip closed the Bluetooth link (switched off or out of range); reconnecting"),
          .retrying(inSeconds: 0.01),
        ])
    #expect(
      radio.dialled.withLock { $0 } == ["C0:11:22:33:44:55/random", "C0:11:22:33:44:55/random"])
    #expect(scans.withLock { $0 } == 1)
  }

  /// On the consumer's event loop (the daemon's socket server's): every
  /// value is handed on from that loop's thread; a value as long as the
  /// largest ATT PDU allows (517 bytes with its header) arrives whole after
  /// a run of short ones; each indication is confirmed (the clip sends the
  /// next only then); the clip's hang-up is `.lost` with the reason the
  /// thread reader gave, then a retry.
  @Test func readsOnTheConsumersEventLoop() async throws {
    let long = String(repeating: "x", count: 513) + "\n"
    let short = Array(repeating: "a:1:0\n", count: 20)
    let radio = FakeRadio([
      Visit(
        notifications: ["s:52\n"] + short + [long], indications: ["s:53\n", "s:54\n"], hangUp: true)
    ])
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let events = Mutex<[SourceEvent]>([])
    let bytesOnTheLoop = Mutex(true)
    let ended = Mutex(false)
    let output = SourceOutput(
      eventLoop: loop,
      deliver: { event, receipt in
        if case .bytes = event, !loop.inEventLoop { bytesOnTheLoop.withLock { $0 = false } }
        events.withLock { $0.append(event) }
        receipt?.signal()
        return true
      },
      end: { ended.withLock { $0 = true } })
    let source = BLESource(
      target: BleTarget("ble:C0:11:22:33:44:55/random")!,
      backoff: Backoff(initial: 30, maximum: 30), transactionTimeout: .seconds(5),
      chooseAdapter: { _ in Self.adapter },
      connect: { address, type, _ in try radio.connect(address, type) })
    source.start(clock: .startingNow(), output: output)
    func statuses() -> [SourceStatus] {
      events.withLock { $0.compactMap { if case .status(let s) = $0 { s } else { nil } } }
    }
    #expect(
      await SocketTest.eventually(within: 20) {
        statuses().contains { if case .retrying = $0 { true } else { false } }
      })
    let bytes = events.withLock { events in
      events.flatMap { event -> [UInt8] in if case .bytes(let b, _) = event { b } else { [] } }
    }
    #expect(
      String(decoding: bytes, as: UTF8.self) == "s:52\n" + short.joined() + long + "s:53\ns:54\n")
    #expect(bytesOnTheLoop.withLock { $0 })
    #expect(radio.confirmations.withLock { $0 } == 2)
    #expect(
      Array(statuses().dropFirst())
        == [
          .lost(
            reason:
              "the clip closed the Bluetooth link (switched off or out of range); reconnecting"),
          .retrying(inSeconds: 30),
        ])
    output.close()
    #expect(await SocketTest.eventually(within: 5) { ended.withLock { $0 } })
    try await group.shutdownGracefully()
  }

  /// On this kernel the real connector fails with EAFNOSUPPORT: the source says
  /// so once, then keeps retrying quietly with growing delays.
  @Test(
    .enabled(
      if: (try? L2capAttSocket.openSocket()).map { close($0) } == nil, "this kernel has Bluetooth"))
  func withoutBluetoothItSaysWhyOnce() async throws {
    let source = BLESource(
      target: BleTarget("ble:C0:11:22:33:44:55/random")!,
      backoff: Backoff(initial: 0.01, maximum: 0.02))
    var statuses: [SourceStatus] = []
    for await event in source.events(clock: .startingNow()) {
      if case .status(let status) = event { statuses.append(status) }
      if statuses.count == 4 { break }
    }
    let message = BluetoothError.system(.openSocket, errno: EAFNOSUPPORT).description
    #expect(message.contains("EAFNOSUPPORT"))
    #expect(
      statuses == [
        .lost(reason: message), .retrying(inSeconds: 0.01), .retrying(inSeconds: 0.02),
        .retrying(inSeconds: 0.02),
      ])
  }
}
