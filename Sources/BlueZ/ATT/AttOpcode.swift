/// ATT PDU opcodes this client sends or understands (Core Spec Vol 3 Part F §3.4.8,
/// Table 3.37). Bit 6 marks a command (no response), bit 7 a signed PDU.
public enum AttOpcode: UInt8, Sendable, CaseIterable {
  case errorResponse = 0x01  // §3.4.1.1
  case exchangeMTURequest = 0x02  // §3.4.2.1
  case exchangeMTUResponse = 0x03  // §3.4.2.2
  case findInformationRequest = 0x04  // §3.4.3.1
  case findInformationResponse = 0x05  // §3.4.3.2
  case readByTypeRequest = 0x08  // §3.4.4.1
  case readByTypeResponse = 0x09  // §3.4.4.2
  case readRequest = 0x0A  // §3.4.4.3
  case readResponse = 0x0B  // §3.4.4.4
  case readByGroupTypeRequest = 0x10  // §3.4.4.9
  case readByGroupTypeResponse = 0x11  // §3.4.4.10
  case writeRequest = 0x12  // §3.4.5.1
  case writeResponse = 0x13  // §3.4.5.2
  case handleValueNotification = 0x1B  // §3.4.7.1
  case handleValueIndication = 0x1D  // §3.4.7.2
  case handleValueConfirmation = 0x1E  // §3.4.7.3
  case writeCommand = 0x52  // §3.4.5.3

  /// The response a request expects, so a transaction can tell its answer from
  /// unrelated traffic (notifications may interleave, §3.3.2).
  public var expectedResponse: AttOpcode? {
    switch self {
    case .exchangeMTURequest: .exchangeMTUResponse
    case .findInformationRequest: .findInformationResponse
    case .readByTypeRequest: .readByTypeResponse
    case .readRequest: .readResponse
    case .readByGroupTypeRequest: .readByGroupTypeResponse
    case .writeRequest: .writeResponse
    default: nil
    }
  }

  /// True for opcodes with the Command Flag (bit 6) set: a server must not answer
  /// them, not even with an Error Response (§3.3.1).
  public static func isCommand(_ raw: UInt8) -> Bool { raw & 0x40 != 0 }
}
