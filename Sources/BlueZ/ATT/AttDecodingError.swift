/// Why a received PDU could not be read. A peer that sends one of these is
/// broken or hostile; the client reports it and never traps on it.
public enum AttDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  case empty
  /// Fewer bytes than the PDU's fixed part needs.
  case tooShort(opcode: UInt8, needed: Int, got: Int)
  /// A length field or list that does not fit the PDU (e.g. a Read By Type
  /// Response whose data is not a whole number of `length`-byte elements).
  case badLength(opcode: UInt8, detail: String)
  /// A Find Information Response Format other than 1 or 2 (§3.4.3.2).
  case badFormat(UInt8)

  public var description: String {
    switch self {
    case .empty: "empty ATT PDU"
    case .tooShort(let op, let needed, let got):
      "ATT PDU 0x\(String(op, radix: 16)) too short: needs \(needed) bytes, got \(got)"
    case .badLength(let op, let detail):
      "ATT PDU 0x\(String(op, radix: 16)) has a bad length: \(detail)"
    case .badFormat(let format): "Find Information Response with unknown format \(format)"
    }
  }
}
