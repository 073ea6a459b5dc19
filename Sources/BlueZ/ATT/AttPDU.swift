/// One ATT protocol data unit (Core Spec Vol 3 Part F §3.3, §3.4): the subset a
/// GATT client needs to find a UART-style characteristic and receive its
/// notifications, plus the server side of the same PDUs for tests and tools.
///
/// Decoding checks every length against the spec and throws
/// `AttDecodingError`; it never traps on what a peer sends.
public enum AttPDU: Hashable, Sendable {
  case errorResponse(request: UInt8, handle: UInt16, error: AttErrorCode)
  case exchangeMTURequest(clientRxMTU: UInt16)
  case exchangeMTUResponse(serverRxMTU: UInt16)
  case findInformationRequest(AttHandleRange)
  /// All elements must use the same UUID size: the PDU's Format (1 = 16-bit,
  /// 2 = 128-bit) covers the whole list (§3.4.3.2).
  case findInformationResponse([AttHandleUUID])
  case readByTypeRequest(AttHandleRange, type: BluetoothUUID)
  /// All values must have the same length: one Length field covers the list (§3.4.4.2).
  case readByTypeResponse([AttAttributeData])
  case readRequest(handle: UInt16)
  case readResponse(value: [UInt8])
  case readByGroupTypeRequest(AttHandleRange, type: BluetoothUUID)
  /// All values must have the same length (§3.4.4.10).
  case readByGroupTypeResponse([AttGroupData])
  case writeRequest(handle: UInt16, value: [UInt8])
  case writeResponse
  case writeCommand(handle: UInt16, value: [UInt8])
  case handleValueNotification(handle: UInt16, value: [UInt8])
  case handleValueIndication(handle: UInt16, value: [UInt8])
  case handleValueConfirmation
  /// Well-formed as far as we can tell, but not one we handle; a server answers
  /// requests of this kind with Request Not Supported (§3.4.1.1).
  case unsupported(opcode: UInt8, parameters: [UInt8])

  public var opcode: UInt8 {
    switch self {
    case .errorResponse: AttOpcode.errorResponse.rawValue
    case .exchangeMTURequest: AttOpcode.exchangeMTURequest.rawValue
    case .exchangeMTUResponse: AttOpcode.exchangeMTUResponse.rawValue
    case .findInformationRequest: AttOpcode.findInformationRequest.rawValue
    case .findInformationResponse: AttOpcode.findInformationResponse.rawValue
    case .readByTypeRequest: AttOpcode.readByTypeRequest.rawValue
    case .readByTypeResponse: AttOpcode.readByTypeResponse.rawValue
    case .readRequest: AttOpcode.readRequest.rawValue
    case .readResponse: AttOpcode.readResponse.rawValue
    case .readByGroupTypeRequest: AttOpcode.readByGroupTypeRequest.rawValue
    case .readByGroupTypeResponse: AttOpcode.readByGroupTypeResponse.rawValue
    case .writeRequest: AttOpcode.writeRequest.rawValue
    case .writeResponse: AttOpcode.writeResponse.rawValue
    case .writeCommand: AttOpcode.writeCommand.rawValue
    case .handleValueNotification: AttOpcode.handleValueNotification.rawValue
    case .handleValueIndication: AttOpcode.handleValueIndication.rawValue
    case .handleValueConfirmation: AttOpcode.handleValueConfirmation.rawValue
    case .unsupported(let opcode, _): opcode
    }
  }

  // MARK: Encoding

  public func encoded() -> [UInt8] {
    var out: [UInt8] = [opcode]
    switch self {
    case .errorResponse(let request, let handle, let error):
      out.append(request)
      out.appendLittleEndian(handle)
      out.append(error.rawValue)
    case .exchangeMTURequest(let mtu), .exchangeMTUResponse(let mtu):
      out.appendLittleEndian(mtu)
    case .findInformationRequest(let range):
      out.appendLittleEndian(range.start)
      out.appendLittleEndian(range.end)
    case .findInformationResponse(let items):
      let wide = items.contains { $0.type.uuid16 == nil }
      out.append(wide ? 0x02 : 0x01)
      for item in items {
        out.appendLittleEndian(item.handle)
        out += wide ? Array(item.type.bytes.reversed()) : item.type.littleEndianBytes
      }
    case .readByTypeRequest(let range, let type), .readByGroupTypeRequest(let range, let type):
      out.appendLittleEndian(range.start)
      out.appendLittleEndian(range.end)
      out += type.littleEndianBytes
    case .readByTypeResponse(let items):
      out.append(UInt8(truncatingIfNeeded: 2 + (items.first?.value.count ?? 0)))
      for item in items {
        out.appendLittleEndian(item.handle)
        out += item.value
      }
    case .readRequest(let handle):
      out.appendLittleEndian(handle)
    case .readResponse(let value):
      out += value
    case .readByGroupTypeResponse(let items):
      out.append(UInt8(truncatingIfNeeded: 4 + (items.first?.value.count ?? 0)))
      for item in items {
        out.appendLittleEndian(item.handle)
        out.appendLittleEndian(item.endGroupHandle)
        out += item.value
      }
    case .writeRequest(let handle, let value), .writeCommand(let handle, let value),
      .handleValueNotification(let handle, let value),
      .handleValueIndication(let handle, let value):
      out.appendLittleEndian(handle)
      out += value
    case .writeResponse, .handleValueConfirmation:
      break
    case .unsupported(_, let parameters):
      out += parameters
    }
    return out
  }

  // MARK: Decoding

  public init(decoding bytes: [UInt8]) throws(AttDecodingError) {
    guard let first = bytes.first else { throw .empty }
    var r = ByteReader(bytes, opcode: first, offset: 1)
    guard let opcode = AttOpcode(rawValue: first) else {
      self = .unsupported(opcode: first, parameters: r.rest())
      return
    }
    switch opcode {
    case .errorResponse:
      self = .errorResponse(
        request: try r.u8(), handle: try r.u16(), error: AttErrorCode(rawValue: try r.u8()))
    case .exchangeMTURequest:
      self = .exchangeMTURequest(clientRxMTU: try r.u16())
    case .exchangeMTUResponse:
      self = .exchangeMTUResponse(serverRxMTU: try r.u16())
    case .findInformationRequest:
      self = .findInformationRequest(AttHandleRange(start: try r.u16(), end: try r.u16()))
    case .findInformationResponse:
      self = .findInformationResponse(try Self.decodeInformationData(&r))
    case .readByTypeRequest:
      let range = AttHandleRange(start: try r.u16(), end: try r.u16())
      self = .readByTypeRequest(range, type: try Self.decodeUUID(r.rest(), opcode: first))
    case .readByGroupTypeRequest:
      let range = AttHandleRange(start: try r.u16(), end: try r.u16())
      self = .readByGroupTypeRequest(range, type: try Self.decodeUUID(r.rest(), opcode: first))
    case .readByTypeResponse:
      let length = Int(try r.u8())
      self = .readByTypeResponse(
        try Self.decodeList(&r, elementLength: length, minimum: 2) {
          element throws(AttDecodingError) in
          AttAttributeData(handle: try element.u16(), value: element.rest())
        })
    case .readByGroupTypeResponse:
      let length = Int(try r.u8())
      self = .readByGroupTypeResponse(
        try Self.decodeList(&r, elementLength: length, minimum: 4) {
          element throws(AttDecodingError) in
          AttGroupData(
            handle: try element.u16(), endGroupHandle: try element.u16(), value: element.rest())
        })
    case .readRequest:
      self = .readRequest(handle: try r.u16())
    case .readResponse:
      self = .readResponse(value: r.rest())
    case .writeRequest:
      self = .writeRequest(handle: try r.u16(), value: r.rest())
    case .writeResponse:
      self = .writeResponse
    case .writeCommand:
      self = .writeCommand(handle: try r.u16(), value: r.rest())
    case .handleValueNotification:
      self = .handleValueNotification(handle: try r.u16(), value: r.rest())
    case .handleValueIndication:
      self = .handleValueIndication(handle: try r.u16(), value: r.rest())
    case .handleValueConfirmation:
      self = .handleValueConfirmation
    }
  }

  private static func decodeUUID(_ raw: [UInt8], opcode: UInt8) throws(AttDecodingError)
    -> BluetoothUUID
  {
    guard let uuid = BluetoothUUID(littleEndian: raw) else {
      throw .badLength(
        opcode: opcode, detail: "attribute type of \(raw.count) bytes (must be 2 or 16)")
    }
    return uuid
  }

  /// Format 1 carries 16-bit UUIDs (4-byte elements), format 2 128-bit ones
  /// (18-byte elements) (§3.4.3.2).
  private static func decodeInformationData(_ r: inout ByteReader) throws(AttDecodingError)
    -> [AttHandleUUID]
  {
    let format = try r.u8()
    let uuidLength: Int
    switch format {
    case 0x01: uuidLength = 2
    case 0x02: uuidLength = 16
    default: throw .badFormat(format)
    }
    return try decodeList(&r, elementLength: 2 + uuidLength, minimum: 4) {
      element throws(AttDecodingError) in
      let handle = try element.u16()
      let uuid = try decodeUUID(element.rest(), opcode: element.opcode)
      return AttHandleUUID(handle: handle, type: uuid)
    }
  }

  /// The list responses hold one or more equal-length elements filling the rest
  /// of the PDU; anything else is malformed.
  private static func decodeList<T>(
    _ r: inout ByteReader, elementLength: Int, minimum: Int,
    _ element: (inout ByteReader) throws(AttDecodingError) -> T
  ) throws(AttDecodingError) -> [T] {
    let op = r.opcode
    guard elementLength >= minimum else {
      throw .badLength(opcode: op, detail: "element length \(elementLength) below \(minimum)")
    }
    let data = r.rest()
    guard !data.isEmpty, data.count % elementLength == 0 else {
      throw .badLength(
        opcode: op,
        detail: "\(data.count) data bytes are not a non-zero multiple of \(elementLength)")
    }
    var items: [T] = []
    for start in stride(from: 0, to: data.count, by: elementLength) {
      var sub = ByteReader(Array(data[start..<start + elementLength]), opcode: op)
      items.append(try element(&sub))
    }
    return items
  }
}
