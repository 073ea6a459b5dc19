/// A 48-bit device address (BD_ADDR). Text is most-significant byte first
/// (`AA:BB:CC:DD:EE:FF`); HCI and L2CAP carry it least-significant byte first,
/// like BlueZ's `bdaddr_t` (Core Spec Vol 4 Part E §5.2).
public struct BluetoothAddress: Hashable, Sendable, CustomStringConvertible {
  /// Most-significant byte first, as printed.
  public let bytes: [UInt8]

  public init?(bytes: [UInt8]) {
    guard bytes.count == 6 else { return nil }
    self.bytes = bytes
  }

  /// Builds the address from its over-the-air (little-endian) 6 bytes.
  public init?<C: Collection<UInt8>>(littleEndian wire: C) {
    self.init(bytes: wire.reversed())
  }

  /// Parses `AA:BB:CC:DD:EE:FF` (case-insensitive).
  public init?(_ text: String) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 6, parts.allSatisfy({ $0.count == 2 }) else { return nil }
    var out: [UInt8] = []
    for part in parts {
      guard let byte = UInt8(part, radix: 16) else { return nil }
      out.append(byte)
    }
    self.init(bytes: out)
  }

  public var littleEndianBytes: [UInt8] { bytes.reversed() }

  public var description: String {
    bytes.map { byte in
      let hex = String(byte, radix: 16, uppercase: true)
      return hex.count == 1 ? "0" + hex : hex
    }.joined(separator: ":")
  }
}
