import BlueZ
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A small ATT server (Core Spec Vol 3 Part F) with a GATT database, on the far
/// end of a real `socketpair(AF_UNIX, SOCK_SEQPACKET)`: the same packet
/// semantics as an L2CAP ATT socket, without a radio.
///
/// When the client enables notifications it plays `script` and then either
/// hangs up (a clip switched off mid-stream) or stays until the client leaves.
final class FakePeripheral: Sendable {
  enum Step: Sendable {
    case notify([UInt8])
    /// Sent as an indication; the next step waits for the confirmation.
    case indicate([UInt8])
    /// Hang up: the client must see the link end.
    case disconnect
  }

  struct Log: Sendable {
    var requests: [UInt8] = []
    var cccdWrites: [[UInt8]] = []
    var confirmations = 0
  }

  let clientBearer: AttBearer
  private let serverBearer: Mutex<AttBearer?>
  private let database: Mutex<GattDatabase>
  private let log = Mutex(Log())
  let mtu: UInt16
  let valueHandle: UInt16
  private let script: [Step]
  /// Overrides for specific request opcodes, to play a misbehaving server.
  private let errors: [UInt8: AttErrorCode]
  /// PDUs sent unasked just before the first service discovery response: a
  /// server may notify, or send its own requests, at any time (Vol 3 Part F §3.3.2).
  private let preamble: Mutex<[AttPDU]>
  private let done = Mutex(false)

  init(
    database: GattDatabase, valueHandle: UInt16, script: [Step], mtu: UInt16 = 23,
    errors: [UInt8: AttErrorCode] = [:], preamble: [AttPDU] = []
  ) throws {
    var fds: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0 else {
      throw POSIXError(POSIXErrorCode(rawValue: errno)!)
    }
    clientBearer = AttBearer(fileDescriptor: fds[0])
    serverBearer = Mutex(AttBearer(fileDescriptor: fds[1]))
    self.database = Mutex(database)
    self.valueHandle = valueHandle
    self.script = script
    self.mtu = mtu
    self.errors = errors
    self.preamble = Mutex(preamble)
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  var requests: [UInt8] { log.withLock { $0.requests } }
  var cccdWrites: [[UInt8]] { log.withLock { $0.cccdWrites } }
  var confirmations: Int { log.withLock { $0.confirmations } }

  /// Stops serving; the socket closes when the last reference goes.
  func stop() { done.withLock { $0 = true } }

  private func bearer() -> AttBearer? { serverBearer.withLock { $0 } }

  private func hangUp() { serverBearer.withLock { $0 = nil } }

  private func serve() {
    while !done.withLock({ $0 }), let bearer = bearer() {
      let raw: [UInt8]
      do {
        guard let received = try bearer.receive(timeoutMilliseconds: 100) else { continue }
        raw = received
      } catch {
        return  // the client went away
      }
      guard let pdu = try? AttPDU(decoding: raw) else {
        try? bearer.send(
          AttPDU.errorResponse(request: raw.first ?? 0, handle: 0, error: .invalidPDU).encoded())
        continue
      }
      log.withLock { $0.requests.append(pdu.opcode) }
      if let code = errors[pdu.opcode] {
        try? bearer.send(
          AttPDU.errorResponse(request: pdu.opcode, handle: 0x0001, error: code).encoded())
        continue
      }
      if case .handleValueConfirmation = pdu {
        log.withLock { $0.confirmations += 1 }
        continue
      }
      if case .readByGroupTypeRequest = pdu {
        for extra in preamble.withLock({ p in
          defer { p = [] }
          return p
        }) { try? bearer.send(extra.encoded()) }
      }
      let reply = respond(to: pdu)
      if let reply { try? bearer.send(reply.encoded()) }
      if case .writeRequest(_, let value) = pdu, case .writeResponse = reply, value != [0, 0] {
        play(on: bearer)
      }
    }
  }

  private func play(on bearer: AttBearer) {
    for step in script {
      switch step {
      case .notify(let bytes):
        try? bearer.send(
          AttPDU.handleValueNotification(handle: valueHandle, value: bytes).encoded())
      case .indicate(let bytes):
        try? bearer.send(AttPDU.handleValueIndication(handle: valueHandle, value: bytes).encoded())
        // Only one indication may be outstanding (§3.4.7.2): wait for the
        // confirmation, as long as the ATT transaction timeout (30 s,
        // §3.3.3). Cut off after 2 s, a client thread starved for longer
        // on a loaded 2-core machine (the full test run) read the link
        // already closed: `indicationsAreConfirmed` failed once that way.
        guard let raw = try? bearer.receive(timeoutMilliseconds: 30_000), raw == [0x1E] else {
          hangUp()  // a client that does not confirm gets cut off, as a real server would
          return
        }
        log.withLock { $0.confirmations += 1 }
      case .disconnect:
        hangUp()
        return
      }
    }
  }

  private func respond(to pdu: AttPDU) -> AttPDU? {
    let db = database.withLock { $0 }
    let room = Int(mtu) - 2  // opcode and length byte
    switch pdu {
    case .exchangeMTURequest:
      return .exchangeMTUResponse(serverRxMTU: mtu)
    case .readByGroupTypeRequest(let range, let type):
      guard type == BluetoothUUID(0x2800) else {
        return .errorResponse(
          request: pdu.opcode, handle: range.start, error: .unsupportedGroupType)
      }
      let services = db.inRange(range).filter { $0.type == type }
      guard let first = services.first else { return notFound(pdu, range) }
      let same = services.prefix { $0.value.count == first.value.count }
      let fits = max(1, room / (4 + first.value.count))
      return .readByGroupTypeResponse(
        same.prefix(fits).map {
          AttGroupData(handle: $0.handle, endGroupHandle: $0.groupEnd!, value: $0.value)
        })
    case .readByTypeRequest(let range, let type):
      let matches = db.inRange(range).filter { $0.type == type }
      guard let first = matches.first else { return notFound(pdu, range) }
      let same = matches.prefix { $0.value.count == first.value.count }
      let fits = max(1, room / (2 + first.value.count))
      return .readByTypeResponse(
        same.prefix(fits).map { AttAttributeData(handle: $0.handle, value: $0.value) })
    case .findInformationRequest(let range):
      let found = db.inRange(range)
      guard let first = found.first else { return notFound(pdu, range) }
      let wide = first.type.uuid16 == nil
      let same = found.prefix { ($0.type.uuid16 == nil) == wide }
      let fits = max(1, (Int(mtu) - 2) / (wide ? 18 : 4))
      return .findInformationResponse(
        same.prefix(fits).map { AttHandleUUID(handle: $0.handle, type: $0.type) })
    case .writeRequest(let handle, let value):
      guard let attribute = db.attributes.first(where: { $0.handle == handle }) else {
        return .errorResponse(request: pdu.opcode, handle: handle, error: .invalidHandle)
      }
      if attribute.type == BluetoothUUID(0x2902) { log.withLock { $0.cccdWrites.append(value) } }
      return .writeResponse
    case .errorResponse, .exchangeMTUResponse, .readResponse:
      return nil  // the client answering our own requests
    default:
      if AttOpcode.isCommand(pdu.opcode) { return nil }
      return .errorResponse(request: pdu.opcode, handle: 0, error: .requestNotSupported)
    }
  }

  private func notFound(_ pdu: AttPDU, _ range: AttHandleRange) -> AttPDU {
    .errorResponse(request: pdu.opcode, handle: range.start, error: .attributeNotFound)
  }
}
