/// A Bluetooth UUID, kept in its canonical big-endian 128-bit form so that a
/// 16-bit alias and its full form compare equal (an ATT server may send either).
///
/// 16-bit UUIDs are aliases of the Bluetooth Base UUID
/// `00000000-0000-1000-8000-00805F9B34FB` (Core Spec Vol 3 Part B §2.5.1).
public struct BluetoothUUID: Hashable, Sendable, CustomStringConvertible {
  /// The 16 bytes in the order they are written in text (big-endian).
  public let bytes: [UInt8]

  /// Bytes 4...15 of the Base UUID; a UUID whose tail matches and whose first two
  /// bytes are zero can travel as 2 bytes on the wire.
  private static let baseTail: [UInt8] = [
    0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB,
  ]

  public init(_ uuid16: UInt16) {
    bytes = [0, 0, UInt8(uuid16 >> 8), UInt8(uuid16 & 0xFF)] + Self.baseTail
  }

  /// `bigEndian` must hold exactly 16 bytes.
  public init?(bigEndian: [UInt8]) {
    guard bigEndian.count == 16 else { return nil }
    bytes = bigEndian
  }

  /// ATT carries UUIDs little-endian, as 2 or 16 bytes (Core Spec Vol 3 Part F §3.2.1).
  public init?<C: Collection<UInt8>>(littleEndian wire: C) {
    switch wire.count {
    case 2:
      let raw = Array(wire)
      self.init(UInt16(raw[0]) | UInt16(raw[1]) << 8)
    case 16: self.init(bigEndian: wire.reversed())
    default: return nil
    }
  }

  /// Accepts `FFE0`, `0xFFE0` or the 36-character form `6E400001-B5A3-F393-E0A9-E50E24DCCA9E`.
  public init?(_ text: String) {
    var hex = Substring(text)
    if hex.hasPrefix("0x") || hex.hasPrefix("0X") { hex = hex.dropFirst(2) }
    if hex.count == 4 {
      guard let short = UInt16(hex, radix: 16) else { return nil }
      self.init(short)
      return
    }
    let groups = hex.split(separator: "-", omittingEmptySubsequences: false)
    guard groups.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
    let digits = Array(groups.joined())
    var out: [UInt8] = []
    for i in stride(from: 0, to: digits.count, by: 2) {
      guard let byte = UInt8(String(digits[i...i + 1]), radix: 16) else { return nil }
      out.append(byte)
    }
    self.init(bigEndian: out)
  }

  /// The 16-bit alias, when this UUID has one.
  public var uuid16: UInt16? {
    guard bytes[0] == 0, bytes[1] == 0, Array(bytes[4...]) == Self.baseTail else { return nil }
    return UInt16(bytes[2]) << 8 | UInt16(bytes[3])
  }

  /// The shortest wire form: 2 bytes for Base-UUID aliases, else 16, little-endian.
  public var littleEndianBytes: [UInt8] {
    if let short = uuid16 { return [UInt8(short & 0xFF), UInt8(short >> 8)] }
    return bytes.reversed()
  }

  public var description: String {
    if let short = uuid16 { return hexString(short >> 8, short & 0xFF) }
    let hex = bytes.map { hexString(0, UInt16($0)).suffix(2) }.joined()
    let cuts = [8, 12, 16, 20]
    var text = ""
    for (i, ch) in hex.enumerated() {
      if cuts.contains(i) { text.append("-") }
      text.append(ch)
    }
    return text
  }

  private func hexString(_ high: UInt16, _ low: UInt16) -> String {
    let value = high << 8 | low
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}
