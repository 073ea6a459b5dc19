import BlueZ
import Testing

/// The GATT client against `FakePeripheral` over a real SOCK_SEQPACKET socketpair.
@Suite(.timeLimit(.minutes(1))) struct GattClientTests {
  static let nusService = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
  static let nusRX = BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!
  static let nusTX = BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!
  static let redBearService = BluetoothUUID("713D0000-503E-4C75-BA94-3148F18D941E")!
  static let redBearTX = BluetoothUUID("713D0002-503E-4C75-BA94-3148F18D941E")!
  static let redBearRX = BluetoothUUID("713D0003-503E-4C75-BA94-3148F18D941E")!

  /// Connects, runs the whole setup and reads the stream to its end.
  func run(
    _ peripheral: FakePeripheral, timeout: Duration = .seconds(5)
  ) async throws -> (UartSubscription, [UInt8], BluetoothError) {
    let client = GattClient(bearer: peripheral.clientBearer, transactionTimeout: timeout)
    let subscription = try await DedicatedThread.run { try UartSubscription.start(on: client) }
    let (bytes, error) = try await DedicatedThread.run { Self.read(subscription.notifications) }
    return (subscription, bytes, error)
  }

  /// Reads the link to its end as the daemon's reader does (`BLELoopReader`,
  /// tested with `BLESource`), here with blocking reads: every PDU through
  /// the receiver, its reply sent back. Returns the values and why it ended.
  static func read(_ receiver: GattNotificationReceiver) -> ([UInt8], BluetoothError) {
    var bytes = receiver.early.flatMap { $0 }
    while true {
      do throws(BluetoothError) {
        guard let pdu = try receiver.bearer.receive(timeoutMilliseconds: 100) else { continue }
        let received = try receiver.receive(pdu)
        if let reply = received.reply { try receiver.bearer.send(reply) }
        bytes += received.value ?? []
      } catch {
        return (bytes, error)
      }
    }
  }

  /// Lines split across 20-byte notifications and several lines in one: the
  /// receiver gets the bytes in order, unframed.
  static let splitLines: [FakePeripheral.Step] = [
    .notify(Array("s:5".utf8)),
    .notify(Array("2\na:1.5:-0".utf8)),
    .notify(Array(".3\ns:51\na:1.4:-0.2\n".utf8)),
    .disconnect,
  ]

  @Test func nordicUARTAtMTU23() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(
      Self.nusService,
      characteristics: [
        (Self.nusRX, [.write, .writeWithoutResponse], []), (Self.nusTX, [.notify], []),
      ])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[1], script: Self.splitLines)
    let (subscription, bytes, error) = try await run(peripheral)

    #expect(subscription.known.name == "Nordic UART")
    #expect(subscription.mtu == 23)
    #expect(subscription.characteristic.uuid == Self.nusTX)
    #expect(subscription.characteristic.valueHandle == handles[1])
    #expect(subscription.cccdHandle == handles[1] + 1)
    #expect(peripheral.cccdWrites == [[0x01, 0x00]])
    #expect(String(decoding: bytes, as: UTF8.self) == "s:52\na:1.5:-0.3\ns:51\na:1.4:-0.2\n")
    #expect(error == .disconnected(errno: nil))
    // MTU exchange first, then the discovery procedures in order, ending with the CCCD write.
    let requests = peripheral.requests
    #expect(requests.first == 0x02)
    #expect(requests.last == 0x12)
    #expect(requests.contains(0x10) && requests.contains(0x08) && requests.contains(0x04))
  }

  @Test func redBearLabBLEMini() async throws {
    var db = GattDatabase.withGAP(name: "BLE Mini")
    let handles = db.addService(
      Self.redBearService,
      characteristics: [
        (Self.redBearRX, [.writeWithoutResponse], []), (Self.redBearTX, [.notify], []),
      ])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[1], script: Self.splitLines)
    let (subscription, bytes, error) = try await run(peripheral)

    #expect(subscription.known.name == "RedBearLab BLE Mini")
    #expect(subscription.characteristic.uuid == Self.redBearTX)
    #expect(String(decoding: bytes, as: UTF8.self) == "s:52\na:1.5:-0.3\ns:51\na:1.4:-0.2\n")
    #expect(error == .disconnected(errno: nil))
  }

  /// HM-10: one characteristic FFE1 for both directions, 16-bit UUIDs throughout
  /// (Find Information format 1). A second, non-notifying characteristic comes
  /// first to show the choice is by property.
  @Test func hm10FFE0() async throws {
    var db = GattDatabase.withGAP(name: "HMSoft")
    let handles = db.addService(
      BluetoothUUID(0xFFE0),
      characteristics: [
        (BluetoothUUID(0xFFE2), [.read, .write], [0x00]),
        (BluetoothUUID(0xFFE1), [.read, .writeWithoutResponse, .notify], []),
      ])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[1], script: Self.splitLines)
    let (subscription, bytes, error) = try await run(peripheral)

    #expect(subscription.known.name == "HM-10 (CC254x)")
    #expect(subscription.characteristic.uuid == BluetoothUUID(0xFFE1))
    #expect(subscription.characteristic.properties == [.read, .writeWithoutResponse, .notify])
    #expect(peripheral.cccdWrites == [[0x01, 0x00]])
    #expect(String(decoding: bytes, as: UTF8.self) == "s:52\na:1.5:-0.3\ns:51\na:1.4:-0.2\n")
    #expect(error == .disconnected(errno: nil))
  }

  /// Property beats name: a notifying characteristic with an unfamiliar UUID is
  /// chosen over the catalog's usual one when that one cannot notify.
  @Test func notifyPropertyBeatsUUID() async throws {
    var db = GattDatabase.withGAP()
    let other = BluetoothUUID("6E400009-B5A3-F393-E0A9-E50E24DCCA9E")!
    let handles = db.addService(
      Self.nusService, characteristics: [(Self.nusTX, [.read], []), (other, [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[1], script: [.disconnect])
    let (subscription, _, _) = try await run(peripheral)
    #expect(subscription.characteristic.uuid == other)
  }

  /// An unrelated service with its own notifying characteristic comes first; the
  /// client still takes the UART service.
  @Test func skipsUnrelatedServices() async throws {
    var db = GattDatabase.withGAP()
    db.addService(
      BluetoothUUID(0x180F), characteristics: [(BluetoothUUID(0x2A19), [.read, .notify], [0x64])])
    let handles = db.addService(
      BluetoothUUID(0xFFE0), characteristics: [(BluetoothUUID(0xFFE1), [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0], script: [.notify(Array("s:40\n".utf8)), .disconnect])
    let (subscription, bytes, _) = try await run(peripheral)
    #expect(subscription.service.uuid == BluetoothUUID(0xFFE0))
    #expect(bytes == Array("s:40\n".utf8))
  }

  @Test func indicationsAreConfirmed() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(Self.nusService, characteristics: [(Self.nusTX, [.indicate], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0],
      script: [.indicate(Array("s:1".utf8)), .indicate(Array("0\n".utf8)), .disconnect])
    let (_, bytes, error) = try await run(peripheral)
    #expect(peripheral.cccdWrites == [[0x02, 0x00]])
    #expect(bytes == Array("s:10\n".utf8))
    #expect(peripheral.confirmations == 2)
    #expect(error == .disconnected(errno: nil))
  }

  /// The clip switched off half-way through a line: what arrived is delivered,
  /// then the stream ends with a clear error.
  @Test func peerDisconnectsMidStream() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(Self.nusService, characteristics: [(Self.nusTX, [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0],
      script: [.notify(Array("s:52\na:1.".utf8)), .disconnect])
    let (_, bytes, error) = try await run(peripheral)
    #expect(bytes == Array("s:52\na:1.".utf8))
    #expect(error == .disconnected(errno: nil))
    #expect(error.description.contains("closed the Bluetooth link"))
  }

  /// Mid-discovery the peripheral notifies early and sends requests of its own:
  /// the early value is delivered first, the Read Request is turned down with
  /// Request Not Supported (an Error Response, 0x01), and the server's MTU
  /// request is answered (0x03); discovery carries on.
  @Test func unsolicitedTrafficDuringDiscovery() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(Self.nusService, characteristics: [(Self.nusTX, [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0], script: [.notify(Array("2\n".utf8)), .disconnect],
      preamble: [
        .handleValueNotification(handle: handles[0], value: Array("s:5".utf8)),
        .readRequest(handle: 0x0003),
        .exchangeMTURequest(clientRxMTU: 23),
      ])
    let (_, bytes, error) = try await run(peripheral)
    #expect(String(decoding: bytes, as: UTF8.self) == "s:52\n")
    #expect(error == .disconnected(errno: nil))
    #expect(peripheral.requests.contains(0x01))
    #expect(peripheral.requests.contains(0x03))
  }

  /// An HM-10 clone with no CCCD that notifies anyway: no write, still streamed.
  /// Once the link is handed over, the client makes no more requests.
  @Test func notifyingCharacteristicWithoutCCCD() async throws {
    var db = GattDatabase.withGAP(name: "HMSoft")
    let handles = db.addService(
      BluetoothUUID(0xFFE0), characteristics: [(BluetoothUUID(0xFFE1), [.read, .notify], [])],
      cccd: false)
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0], script: [],
      preamble: [.handleValueNotification(handle: handles[0], value: Array("s:60\n".utf8))])
    let client = GattClient(bearer: peripheral.clientBearer, transactionTimeout: .seconds(5))
    let subscription = try await DedicatedThread.run { try UartSubscription.start(on: client) }
    #expect(subscription.cccdHandle == nil)
    #expect(subscription.notifications.early == [Array("s:60\n".utf8)])
    #expect(peripheral.cccdWrites.isEmpty)
    #expect(!peripheral.requests.contains(0x12))
    await #expect(throws: BluetoothError.bearerBusy) {
      _ = try await DedicatedThread.run { try client.exchangeMTU() }
    }
  }

  @Test func deviceWithoutUARTService() async throws {
    var db = GattDatabase.withGAP()
    db.addService(
      BluetoothUUID(0x180F), characteristics: [(BluetoothUUID(0x2A19), [.read, .notify], [0x64])])
    let peripheral = try FakePeripheral(database: db, valueHandle: 0, script: [])
    await #expect(
      throws: BluetoothError.noUartService(found: [BluetoothUUID(0x1800), BluetoothUUID(0x180F)])
    ) {
      _ = try await run(peripheral)
    }
  }

  /// An Error Response other than Attribute Not Found is not the end of a
  /// procedure: it surfaces with its code.
  @Test func errorResponseOnCCCDWriteSurfaces() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(Self.nusService, characteristics: [(Self.nusTX, [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0], script: [], errors: [0x12: .insufficientAuthentication]
    )
    await #expect(
      throws: BluetoothError.attError(
        request: 0x12, handle: 0x0001, code: .insufficientAuthentication)
    ) {
      _ = try await run(peripheral)
    }
  }

  /// A server without MTU exchange support answers Request Not Supported; the
  /// client stays at the default 23 and carries on.
  @Test func mtuExchangeNotSupported() async throws {
    var db = GattDatabase.withGAP()
    let handles = db.addService(
      BluetoothUUID(0xFFE0), characteristics: [(BluetoothUUID(0xFFE1), [.notify], [])])
    let peripheral = try FakePeripheral(
      database: db, valueHandle: handles[0], script: [.disconnect],
      errors: [0x02: .requestNotSupported])
    let (subscription, _, _) = try await run(peripheral)
    #expect(subscription.mtu == 23)
  }

  @Test func silentPeerTimesOut() async throws {
    let peripheral = try FakePeripheral(database: GattDatabase(), valueHandle: 0, script: [])
    peripheral.stop()
    try await Task.sleep(for: .milliseconds(150))  // let the server thread notice and exit
    let client = GattClient(bearer: peripheral.clientBearer, transactionTimeout: .milliseconds(200))
    await #expect(throws: BluetoothError.timeout(request: 0x02)) {
      _ = try await DedicatedThread.run { try client.exchangeMTU() }
    }
  }
}
