import Testing

@testable import BlueZ

/// Byte vectors laid out as in Core Spec Vol 3 Part F §3.4 (all fields little-endian).
@Suite struct AttPDUTests {
  /// 6E400001-B5A3-F393-E0A9-E50E24DCCA9E as it travels: least-significant byte first.
  static let nusServiceWire: [UInt8] = [
    0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
  ]
  static let nusTXWire: [UInt8] = [
    0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x03, 0x00, 0x40, 0x6E,
  ]

  func roundTrip(_ pdu: AttPDU, _ bytes: [UInt8]) throws {
    #expect(pdu.encoded() == bytes)
    #expect(try AttPDU(decoding: bytes) == pdu)
  }

  @Test func exchangeMTU() throws {
    try roundTrip(.exchangeMTURequest(clientRxMTU: 247), [0x02, 0xF7, 0x00])
    try roundTrip(.exchangeMTUResponse(serverRxMTU: 23), [0x03, 0x17, 0x00])
  }

  @Test func readByGroupTypeRequestForPrimaryServices() throws {
    try roundTrip(
      .readByGroupTypeRequest(.all, type: BluetoothUUID(0x2800)),
      [0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
  }

  @Test func readByGroupTypeResponseWith16BitUUIDs() throws {
    let bytes: [UInt8] = [
      0x11, 0x06, 0x01, 0x00, 0x07, 0x00, 0x00, 0x18, 0x08, 0x00, 0x0B, 0x00, 0xE0, 0xFF,
    ]
    try roundTrip(
      .readByGroupTypeResponse([
        AttGroupData(handle: 0x0001, endGroupHandle: 0x0007, value: [0x00, 0x18]),
        AttGroupData(handle: 0x0008, endGroupHandle: 0x000B, value: [0xE0, 0xFF]),
      ]), bytes)
  }

  @Test func readByGroupTypeResponseWith128BitUUID() throws {
    let bytes: [UInt8] = [0x11, 0x14, 0x0C, 0x00, 0xFF, 0xFF] + Self.nusServiceWire
    let pdu = try AttPDU(decoding: bytes)
    guard case .readByGroupTypeResponse(let groups) = pdu else {
      Issue.record("decoded \(pdu)")
      return
    }
    #expect(groups.count == 1)
    #expect(groups[0].handle == 0x000C && groups[0].endGroupHandle == 0xFFFF)
    #expect(
      BluetoothUUID(littleEndian: groups[0].value)
        == BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E"))
    #expect(pdu.encoded() == bytes)
  }

  @Test func readByTypeResponseCarriesCharacteristicDeclarations() throws {
    // NUS TX: declaration at 0x000D, properties Notify (0x10), value handle 0x000E.
    let nus: [UInt8] = [0x09, 0x15, 0x0D, 0x00, 0x10, 0x0E, 0x00] + Self.nusTXWire
    guard case .readByTypeResponse(let items) = try AttPDU(decoding: nus) else {
      Issue.record("not a Read By Type Response")
      return
    }
    let tx = try GattCharacteristic(declaration: items[0])
    #expect(tx.declarationHandle == 0x000D)
    #expect(tx.properties == .notify)
    #expect(tx.valueHandle == 0x000E)
    #expect(tx.uuid.description == "6E400003-B5A3-F393-E0A9-E50E24DCCA9E")

    // HM-10: two 16-bit declarations in one response, FFE1 with read|write-no-rsp|write|notify (0x1E).
    let hm10: [UInt8] = [
      0x09, 0x07, 0x0C, 0x00, 0x1E, 0x0D, 0x00, 0xE1, 0xFF, 0x0F, 0x00, 0x02, 0x10, 0x00, 0xE2,
      0xFF,
    ]
    guard case .readByTypeResponse(let pair) = try AttPDU(decoding: hm10) else {
      Issue.record("not a Read By Type Response")
      return
    }
    let chars = try pair.map { try GattCharacteristic(declaration: $0) }
    #expect(chars.map(\.valueHandle) == [0x000D, 0x0010])
    #expect(chars[0].properties == [.read, .writeWithoutResponse, .write, .notify])
    #expect(chars[0].uuid == BluetoothUUID(0xFFE1))
    #expect(AttPDU.readByTypeResponse(pair).encoded() == hm10)
  }

  @Test func findInformationResponseFormats() throws {
    try roundTrip(
      .findInformationResponse([AttHandleUUID(handle: 0x000F, type: BluetoothUUID(0x2902))]),
      [0x05, 0x01, 0x0F, 0x00, 0x02, 0x29])
    try roundTrip(
      .findInformationResponse([
        AttHandleUUID(handle: 0x0010, type: BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!)
      ]),
      [0x05, 0x02, 0x10, 0x00] + Self.nusTXWire)
  }

  @Test func writeErrorNotificationIndication() throws {
    try roundTrip(
      .findInformationRequest(AttHandleRange(start: 0x000F, end: 0x0010)),
      [0x04, 0x0F, 0x00, 0x10, 0x00])
    try roundTrip(
      .readByTypeRequest(AttHandleRange(start: 0x000C, end: 0xFFFF), type: BluetoothUUID(0x2803)),
      [0x08, 0x0C, 0x00, 0xFF, 0xFF, 0x03, 0x28])
    try roundTrip(
      .writeRequest(handle: 0x000F, value: [0x01, 0x00]), [0x12, 0x0F, 0x00, 0x01, 0x00])
    try roundTrip(.writeResponse, [0x13])
    try roundTrip(
      .errorResponse(request: 0x10, handle: 0x000C, error: .attributeNotFound),
      [0x01, 0x10, 0x0C, 0x00, 0x0A])
    try roundTrip(
      .handleValueNotification(handle: 0x000E, value: Array("s:52\n".utf8)),
      [0x1B, 0x0E, 0x00, 0x73, 0x3A, 0x35, 0x32, 0x0A])
    try roundTrip(.handleValueIndication(handle: 0x000E, value: [0x61]), [0x1D, 0x0E, 0x00, 0x61])
    try roundTrip(.handleValueConfirmation, [0x1E])
    try roundTrip(.writeCommand(handle: 0x0011, value: [0x41]), [0x52, 0x11, 0x00, 0x41])
    // An opcode we do not know is kept, not rejected: a server answers it with Request Not Supported.
    try roundTrip(
      .unsupported(opcode: 0x0C, parameters: [0x01, 0x00, 0x00, 0x00]),
      [0x0C, 0x01, 0x00, 0x00, 0x00])
  }

  @Test func malformedPDUsThrow() {
    #expect(throws: AttDecodingError.empty) { try AttPDU(decoding: []) }
    #expect(throws: AttDecodingError.tooShort(opcode: 0x03, needed: 3, got: 2)) {
      try AttPDU(decoding: [0x03, 0x17])
    }
    #expect(throws: AttDecodingError.tooShort(opcode: 0x01, needed: 5, got: 4)) {
      try AttPDU(decoding: [0x01, 0x10, 0x0C, 0x00])
    }
    #expect(throws: AttDecodingError.tooShort(opcode: 0x1B, needed: 3, got: 2)) {
      try AttPDU(decoding: [0x1B, 0x0E])
    }
    // Length 7 but only 5 data bytes.
    #expect(throws: AttDecodingError.self) {
      try AttPDU(decoding: [0x09, 0x07, 0x0C, 0x00, 0x1E, 0x0D, 0x00])
    }
    // Length below a handle's two bytes.
    #expect(throws: AttDecodingError.self) { try AttPDU(decoding: [0x09, 0x01, 0x0C]) }
    // Length byte present, no elements.
    #expect(throws: AttDecodingError.self) { try AttPDU(decoding: [0x11, 0x06]) }
    // Group element shorter than handle + end group handle.
    #expect(throws: AttDecodingError.self) { try AttPDU(decoding: [0x11, 0x03, 0x01, 0x00, 0x02]) }
    #expect(throws: AttDecodingError.badFormat(3)) {
      try AttPDU(decoding: [0x05, 0x03, 0x0F, 0x00, 0x02, 0x29])
    }
    #expect(throws: AttDecodingError.self) { try AttPDU(decoding: [0x05, 0x01, 0x0F, 0x00, 0x02]) }
    #expect(throws: AttDecodingError.self) {
      try AttPDU(decoding: [0x05, 0x02, 0x0F, 0x00, 0x02, 0x29])
    }
    // A 3-byte attribute type is neither 16- nor 128-bit.
    #expect(throws: AttDecodingError.self) {
      try AttPDU(decoding: [0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28, 0x00])
    }
    // A characteristic declaration must be 5 or 19 bytes.
    #expect(throws: AttDecodingError.self) {
      try GattCharacteristic(
        declaration: AttAttributeData(handle: 1, value: [0x10, 0x0E, 0x00, 0xE1]))
    }
  }

  /// Random bytes never trap the decoder, and whatever decodes re-encodes to
  /// something that decodes to the same PDU.
  @Test func arbitraryBytesNeverCrash() throws {
    var rng = SplitMix64(seed: 0x4C69_6674)
    var decoded = 0
    for _ in 0..<20_000 {
      let count = Int(rng.next() % 24)
      var bytes = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      if !bytes.isEmpty, rng.next() % 2 == 0 {
        bytes[0] = AttOpcode.allCases[Int(rng.next() % UInt64(AttOpcode.allCases.count))].rawValue
      }
      guard let pdu = try? AttPDU(decoding: bytes) else { continue }
      decoded += 1
      #expect(try AttPDU(decoding: pdu.encoded()) == pdu)
    }
    #expect(decoded > 1000)
  }
}

/// A tiny deterministic generator so the fuzz-style test is reproducible.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
