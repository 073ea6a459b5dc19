/// The Advertising Data (or Scan Response Data) of one report, as a list of AD
/// structures: Length (1 byte, covering type and data), AD Type, data
/// (Core Spec Vol 3 Part C §11; types from the Core Specification Supplement
/// Part A §1 and Assigned Numbers).
///
/// Parsing is lenient on purpose: a device whose last AD structure is broken
/// still shows up in a scan with what could be read, and `isTruncated` says so.
public struct AdvertisingData: Hashable, Sendable {
  /// AD types this parser interprets (Supplement Part A §1.1–1.3).
  public enum ADType {
    public static let flags: UInt8 = 0x01
    public static let incompleteUUID16: UInt8 = 0x02
    public static let completeUUID16: UInt8 = 0x03
    public static let incompleteUUID128: UInt8 = 0x06
    public static let completeUUID128: UInt8 = 0x07
    public static let shortenedLocalName: UInt8 = 0x08
    public static let completeLocalName: UInt8 = 0x09
  }

  /// Every structure in order, as (AD Type, data).
  public var structures: [(type: UInt8, data: [UInt8])]
  /// True when a structure's length ran past the end of the data.
  public var isTruncated: Bool

  public init(_ bytes: [UInt8]) {
    structures = []
    isTruncated = false
    var offset = 0
    while offset < bytes.count {
      let length = Int(bytes[offset])
      // A zero length ends the significant part; the rest is padding (Vol 3 Part C §11).
      if length == 0 { break }
      guard offset + 1 + length <= bytes.count else {
        isTruncated = true
        break
      }
      structures.append((bytes[offset + 1], Array(bytes[offset + 2..<offset + 1 + length])))
      offset += 1 + length
    }
  }

  /// The Flags byte (LE General Discoverable, BR/EDR Not Supported, …).
  public var flags: UInt8? { structures.first { $0.type == ADType.flags }?.data.first }

  /// The complete local name, else the shortened one.
  public var localName: String? {
    let named =
      structures.first { $0.type == ADType.completeLocalName }
      ?? structures.first { $0.type == ADType.shortenedLocalName }
    return named.map { String(decoding: $0.data, as: UTF8.self) }
  }

  /// 16- and 128-bit service UUIDs from complete and incomplete lists, in
  /// order; lists are little-endian like ATT.
  public var serviceUUIDs: [BluetoothUUID] {
    var out: [BluetoothUUID] = []
    for item in structures {
      let width: Int
      switch item.type {
      case ADType.incompleteUUID16, ADType.completeUUID16: width = 2
      case ADType.incompleteUUID128, ADType.completeUUID128: width = 16
      default: continue
      }
      var start = 0
      while start + width <= item.data.count {
        if let uuid = BluetoothUUID(littleEndian: item.data[start..<start + width]) {
          out.append(uuid)
        }
        start += width
      }
    }
    return out
  }

  public static func == (lhs: AdvertisingData, rhs: AdvertisingData) -> Bool {
    lhs.isTruncated == rhs.isTruncated && lhs.structures.elementsEqual(rhs.structures) { $0 == $1 }
  }

  public func hash(into hasher: inout Hasher) {
    for item in structures {
      hasher.combine(item.type)
      hasher.combine(item.data)
    }
  }
}
