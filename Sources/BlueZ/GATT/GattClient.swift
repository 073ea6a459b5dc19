import Foundation
import Synchronization

/// A minimal GATT client (Core Spec Vol 3 Part G §4) over any ATT bearer: just
/// enough to exchange the MTU, discover services, characteristics and
/// descriptors, enable notifications and receive them.
///
/// Requests block the calling thread for at most the transaction timeout, so
/// call them off the cooperative pool (see `DedicatedThread`). Once
/// `receiveNotifications(from:)` has handed the link over, further requests
/// throw `.bearerBusy`: the clip only ever needs requests during setup.
public final class GattClient: Sendable {
  public let bearer: AttBearer
  /// ATT gives each request 30 s before the bearer is considered dead (Vol 3 Part F §3.3.3).
  public let transactionTimeout: Duration

  private struct State {
    var mtu: UInt16 = GattClient.defaultLEMTU
    var streaming = false
    /// Notifications and indications that arrived during a transaction, kept
    /// in order for the stream (a server may notify at any time, §3.3.2).
    var early: [(handle: UInt16, value: [UInt8])] = []
  }
  private let state = Mutex(State())
  /// Serialises transactions: ATT allows one outstanding request per bearer (§3.3.2).
  private let transactionLock = Mutex(())

  /// ATT_MTU on LE before any exchange (Vol 3 Part G §5.2.1).
  public static let defaultLEMTU: UInt16 = 23

  public init(bearer: AttBearer, transactionTimeout: Duration = .seconds(30)) {
    self.bearer = bearer
    self.transactionTimeout = transactionTimeout
  }

  /// The negotiated ATT_MTU: notifications carry at most `mtu - 3` bytes.
  public var mtu: UInt16 { state.withLock { $0.mtu } }

  // MARK: Procedures

  /// Exchange MTU (Vol 3 Part G §4.3.1): ATT_MTU becomes the smaller of both
  /// Rx MTUs, never below 23. 247 fills one LE Data Length Extension packet.
  @discardableResult
  public func exchangeMTU(clientRxMTU: UInt16 = 247) throws(BluetoothError) -> UInt16 {
    let reply = try request(.exchangeMTURequest(clientRxMTU: clientRxMTU))
    switch reply {
    case .exchangeMTUResponse(let serverRxMTU):
      let mtu = max(Self.defaultLEMTU, min(clientRxMTU, serverRxMTU))
      state.withLock { $0.mtu = mtu }
      return mtu
    case .errorResponse(_, _, let code) where code == .requestNotSupported:
      return Self.defaultLEMTU
    case .errorResponse(let request, let handle, let code):
      throw .attError(request: request, handle: handle, code: code)
    default:
      throw .unexpectedResponse(request: AttOpcode.exchangeMTURequest.rawValue, got: reply.opcode)
    }
  }

  /// Discover All Primary Services (Vol 3 Part G §4.4.1).
  public func discoverPrimaryServices() throws(BluetoothError) -> [GattService] {
    var found: [GattService] = []
    var start: UInt16 = 0x0001
    while true {
      let reply = try request(
        .readByGroupTypeRequest(
          AttHandleRange(start: start, end: 0xFFFF), type: GattAttributeType.primaryService))
      guard case .readByGroupTypeResponse(let groups) = reply else {
        if try endsDiscovery(reply, request: .readByGroupTypeRequest) { return found }
        continue
      }
      for group in groups {
        guard let uuid = BluetoothUUID(littleEndian: group.value) else {
          throw .malformed(
            .badLength(opcode: reply.opcode, detail: "service UUID of \(group.value.count) bytes"))
        }
        found.append(
          GattService(
            uuid: uuid, handles: AttHandleRange(start: group.handle, end: group.endGroupHandle)))
      }
      guard
        let next = try nextStart(after: groups.last!.endGroupHandle, previous: start, end: 0xFFFF)
      else {
        return found
      }
      start = next
    }
  }

  /// Discover All Characteristics of a Service (Vol 3 Part G §4.6.1).
  public func discoverCharacteristics(of service: GattService) throws(BluetoothError)
    -> [GattCharacteristic]
  {
    var found: [GattCharacteristic] = []
    var start = service.handles.start
    while start <= service.handles.end {
      let reply = try request(
        .readByTypeRequest(
          AttHandleRange(start: start, end: service.handles.end),
          type: GattAttributeType.characteristic))
      guard case .readByTypeResponse(let items) = reply else {
        if try endsDiscovery(reply, request: .readByTypeRequest) { return found }
        continue
      }
      for item in items {
        do throws(AttDecodingError) {
          found.append(try GattCharacteristic(declaration: item))
        } catch { throw .malformed(error) }
      }
      guard
        let next = try nextStart(
          after: items.last!.handle, previous: start, end: service.handles.end)
      else {
        return found
      }
      start = next
    }
    return found
  }

  /// Discover All Characteristic Descriptors (Vol 3 Part G §4.7.1) in `range`,
  /// which runs from just after a characteristic's value handle to the end of
  /// the characteristic.
  public func discoverDescriptors(in range: AttHandleRange) throws(BluetoothError)
    -> [AttHandleUUID]
  {
    var found: [AttHandleUUID] = []
    var start = range.start
    while start <= range.end {
      let reply = try request(.findInformationRequest(AttHandleRange(start: start, end: range.end)))
      guard case .findInformationResponse(let items) = reply else {
        if try endsDiscovery(reply, request: .findInformationRequest) { return found }
        continue
      }
      found += items
      guard let next = try nextStart(after: items.last!.handle, previous: start, end: range.end)
      else {
        return found
      }
      start = next
    }
    return found
  }

  /// The handles belonging to `characteristic`: its descriptors live between its
  /// value handle and the next declaration (or the service's end) (§3.3).
  public static func descriptorRange(
    of characteristic: GattCharacteristic, among all: [GattCharacteristic], in service: GattService
  ) -> AttHandleRange? {
    let nextDeclaration = all.map(\.declarationHandle).filter {
      $0 > characteristic.declarationHandle
    }.min()
    let end = nextDeclaration.map { $0 - 1 } ?? service.handles.end
    guard characteristic.valueHandle < end else { return nil }
    return AttHandleRange(start: characteristic.valueHandle + 1, end: end)
  }

  /// Write Characteristic Value / Descriptor with a Write Request (§4.9.3, §4.12.3).
  public func write(_ value: [UInt8], to handle: UInt16) throws(BluetoothError) {
    let reply = try request(.writeRequest(handle: handle, value: value))
    switch reply {
    case .writeResponse: return
    case .errorResponse(let request, let handle, let code):
      throw .attError(request: request, handle: handle, code: code)
    default:
      throw .unexpectedResponse(request: AttOpcode.writeRequest.rawValue, got: reply.opcode)
    }
  }

  // MARK: Notifications

  /// Ends the request phase for good and hands over what receiving the
  /// Handle Value Notifications and Indications of `valueHandle` needs
  /// (§3.4.7): the link, the values that came during the setup, and the
  /// decoding of what comes next (`GattNotificationReceiver`). Whoever reads
  /// the link from then on passes it each PDU and sends back the replies it
  /// calls for; the daemon does so on an event loop. Further requests throw
  /// `.bearerBusy`: the clip only ever needs requests during setup.
  public func receiveNotifications(from valueHandle: UInt16) throws(BluetoothError)
    -> GattNotificationReceiver
  {
    // Under the transaction lock, so a request still waiting for its response
    // keeps the bearer until it has it.
    let started = transactionLock.withLock { _ in
      state.withLock { state -> [(handle: UInt16, value: [UInt8])]? in
        if state.streaming { return nil }
        state.streaming = true
        defer { state.early = [] }
        return state.early
      }
    }
    guard let early = started else { throw .bearerBusy }
    return GattNotificationReceiver(
      bearer: bearer, valueHandle: valueHandle,
      early: early.filter { $0.handle == valueHandle }.map(\.value))
  }

  // MARK: Transactions

  /// Sends a request and waits for its response or Error Response, serving
  /// whatever else the peer sends meanwhile.
  func request(_ pdu: AttPDU) throws(BluetoothError) -> AttPDU {
    let expected = AttOpcode(rawValue: pdu.opcode)?.expectedResponse?.rawValue
    return try transactionLock.withLock { _ throws(BluetoothError) -> AttPDU in
      if state.withLock({ $0.streaming }) { throw .bearerBusy }
      try bearer.send(pdu.encoded())
      let clock = ContinuousClock()
      let deadline = clock.now + transactionTimeout
      while true {
        let left = clock.now.duration(to: deadline)
        guard left > .zero else { throw .timeout(request: pdu.opcode) }
        let (seconds, attoseconds) = left.components
        let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
        guard let raw = try bearer.receive(timeoutMilliseconds: milliseconds) else { continue }
        let reply = try Self.decode(raw)
        if case .errorResponse(let request, _, _) = reply, request == pdu.opcode { return reply }
        if reply.opcode == expected { return reply }
        let unsolicited = Self.answer(reply)
        if let answer = unsolicited.reply { try bearer.send(answer.encoded()) }
        if let value = unsolicited.value {
          state.withLock { $0.early.append(value) }
          continue
        }
        if Self.isServerBound(reply.opcode) { continue }
        throw .unexpectedResponse(request: pdu.opcode, got: reply.opcode)
      }
    }
  }

  static func decode(_ raw: [UInt8]) throws(BluetoothError) -> AttPDU {
    do throws(AttDecodingError) { return try AttPDU(decoding: raw) } catch {
      throw .malformed(error)
    }
  }

  /// What a PDU the peer may send at any time calls for, during a
  /// transaction or after (`GattNotificationReceiver`): indications are
  /// confirmed and requests to our (empty) ATT server turned down, so the
  /// peer's own transactions do not time out and drop the link (§3.3.2,
  /// §3.4.1.1). Returns the handle and value of a notification or
  /// indication, and the reply to send at once.
  static func answer(_ pdu: AttPDU) -> (
    value: (handle: UInt16, value: [UInt8])?, reply: AttPDU?
  ) {
    switch pdu {
    case .handleValueNotification(let handle, let value):
      return ((handle, value), nil)
    case .handleValueIndication(let handle, let value):
      return ((handle, value), .handleValueConfirmation)
    case .exchangeMTURequest:
      return (nil, .exchangeMTUResponse(serverRxMTU: Self.defaultLEMTU))
    default:
      guard Self.isServerBound(pdu.opcode) && !AttOpcode.isCommand(pdu.opcode) else {
        return (nil, nil)
      }
      return (nil, .errorResponse(request: pdu.opcode, handle: 0x0000, error: .requestNotSupported))
    }
  }

  /// Requests and commands travel client → server; responses the other way
  /// (Vol 3 Part F §3.4.8, Table 3.37). 0x1E (confirmation) is client → server too.
  static func isServerBound(_ opcode: UInt8) -> Bool {
    let requests: Set<UInt8> = [
      0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x0E, 0x10, 0x12, 0x16, 0x18, 0x1E, 0x20,
    ]
    return requests.contains(opcode) || AttOpcode.isCommand(opcode)
  }

  /// An Error Response with Attribute Not Found is the normal end of discovery
  /// (Vol 3 Part G §4.4.1, §4.6.1, §4.7.1); any other error is surfaced.
  private func endsDiscovery(_ reply: AttPDU, request: AttOpcode) throws(BluetoothError) -> Bool {
    if case .errorResponse(let req, let handle, let code) = reply {
      if code == .attributeNotFound { return true }
      throw .attError(request: req, handle: handle, code: code)
    }
    throw .unexpectedResponse(request: request.rawValue, got: reply.opcode)
  }

  /// The next discovery start: one past the last handle seen. Stops at the end
  /// of the range, and refuses to go backwards so a broken server cannot keep us
  /// looping forever.
  private func nextStart(after last: UInt16, previous: UInt16, end: UInt16) throws(BluetoothError)
    -> UInt16?
  {
    guard last < end, last != 0xFFFF else { return nil }
    guard last >= previous else {
      throw .malformed(.badLength(opcode: 0, detail: "discovery went backwards to handle \(last)"))
    }
    return last + 1
  }
}
