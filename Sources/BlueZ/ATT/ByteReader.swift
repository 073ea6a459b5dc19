/// A cursor over received bytes that reports running out instead of trapping:
/// every read from the peer goes through it.
struct ByteReader {
  private let bytes: [UInt8]
  private(set) var offset: Int
  let opcode: UInt8

  init(_ bytes: [UInt8], opcode: UInt8, offset: Int = 0) {
    self.bytes = bytes
    self.opcode = opcode
    self.offset = offset
  }

  var remaining: Int { bytes.count - offset }

  mutating func u8() throws(AttDecodingError) -> UInt8 {
    try need(1)
    defer { offset += 1 }
    return bytes[offset]
  }

  /// ATT multi-octet fields are little-endian (Core Spec Vol 3 Part F §3.3).
  mutating func u16() throws(AttDecodingError) -> UInt16 {
    try need(2)
    defer { offset += 2 }
    return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
  }

  mutating func take(_ count: Int) throws(AttDecodingError) -> [UInt8] {
    try need(count)
    defer { offset += count }
    return Array(bytes[offset..<offset + count])
  }

  mutating func rest() -> [UInt8] {
    defer { offset = bytes.count }
    return Array(bytes[offset...])
  }

  private func need(_ count: Int) throws(AttDecodingError) {
    guard remaining >= count else {
      throw .tooShort(opcode: opcode, needed: offset + count, got: bytes.count)
    }
  }
}

extension Array where Element == UInt8 {
  mutating func appendLittleEndian(_ value: UInt16) {
    append(UInt8(value & 0xFF))
    append(UInt8(value >> 8))
  }
}
