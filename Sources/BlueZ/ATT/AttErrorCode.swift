/// The Error Code of an ATT Error Response (Core Spec Vol 3 Part F §3.4.1.1,
/// Table 3.4). A struct, not an enum, because codes 0x80–0x9F are defined by
/// each application and 0xE0–0xFF by profiles: an unknown code is not malformed.
public struct AttErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  public static let invalidHandle = Self(rawValue: 0x01)
  public static let readNotPermitted = Self(rawValue: 0x02)
  public static let writeNotPermitted = Self(rawValue: 0x03)
  public static let invalidPDU = Self(rawValue: 0x04)
  public static let insufficientAuthentication = Self(rawValue: 0x05)
  public static let requestNotSupported = Self(rawValue: 0x06)
  public static let invalidOffset = Self(rawValue: 0x07)
  public static let insufficientAuthorization = Self(rawValue: 0x08)
  /// Ends every discovery procedure: there is nothing more in the range
  /// (Vol 3 Part G §4.4.1, §4.6.1, §4.7.1).
  public static let attributeNotFound = Self(rawValue: 0x0A)
  public static let invalidAttributeValueLength = Self(rawValue: 0x0D)
  public static let unlikelyError = Self(rawValue: 0x0E)
  public static let insufficientEncryption = Self(rawValue: 0x0F)
  public static let unsupportedGroupType = Self(rawValue: 0x10)
  public static let insufficientResources = Self(rawValue: 0x11)

  public var description: String {
    let name: String =
      switch rawValue {
      case 0x01: "Invalid Handle"
      case 0x02: "Read Not Permitted"
      case 0x03: "Write Not Permitted"
      case 0x04: "Invalid PDU"
      case 0x05: "Insufficient Authentication"
      case 0x06: "Request Not Supported"
      case 0x07: "Invalid Offset"
      case 0x08: "Insufficient Authorization"
      case 0x09: "Prepare Queue Full"
      case 0x0A: "Attribute Not Found"
      case 0x0B: "Attribute Not Long"
      case 0x0C: "Encryption Key Size Too Short"
      case 0x0D: "Invalid Attribute Value Length"
      case 0x0E: "Unlikely Error"
      case 0x0F: "Insufficient Encryption"
      case 0x10: "Unsupported Group Type"
      case 0x11: "Insufficient Resources"
      case 0x80...0x9F: "Application Error"
      default: "Error"
      }
    return "\(name) (0x\(String(rawValue, radix: 16, uppercase: true)))"
  }
}
