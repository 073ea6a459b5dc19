/// The Characteristic Properties bit field of a characteristic declaration
/// (Core Spec Vol 3 Part G §3.3.1.1, Table 3.5). The clip's data characteristic
/// is the one with `notify` (or `indicate`), whatever it is called.
public struct CharacteristicProperties: OptionSet, Hashable, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let broadcast = Self(rawValue: 0x01)
  public static let read = Self(rawValue: 0x02)
  public static let writeWithoutResponse = Self(rawValue: 0x04)
  public static let write = Self(rawValue: 0x08)
  public static let notify = Self(rawValue: 0x10)
  public static let indicate = Self(rawValue: 0x20)
  public static let authenticatedSignedWrites = Self(rawValue: 0x40)
  public static let extendedProperties = Self(rawValue: 0x80)
}
