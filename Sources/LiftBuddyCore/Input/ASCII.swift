/// The bytes the input stage looks at, named so that the byte loops read as
/// the grammar they implement rather than as hex.
enum ASCII {
  static let tab: UInt8 = 0x09
  static let newline: UInt8 = 0x0A
  static let carriageReturn: UInt8 = 0x0D
  static let space: UInt8 = 0x20
  static let hash: UInt8 = 0x23
  static let plus: UInt8 = 0x2B
  static let minus: UInt8 = 0x2D
  static let dot: UInt8 = 0x2E
  static let zero: UInt8 = 0x30
  static let nine: UInt8 = 0x39
  static let colon: UInt8 = 0x3A
  static let lowercaseA: UInt8 = 0x61
  static let lowercaseS: UInt8 = 0x73
}
