/// Why an HCI event could not be read. A controller sending these is broken;
/// the scanner skips the event rather than stopping.
public enum HciDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  case notAnEventPacket(UInt8)
  case notAnAdvertisingReport(event: UInt8, subevent: UInt8?)
  case truncated(needed: Int, got: Int)
  case parameterLengthMismatch(declared: Int, actual: Int)

  public var description: String {
    switch self {
    case .notAnEventPacket(let type): "HCI packet type 0x\(String(type, radix: 16)) is not an event"
    case .notAnAdvertisingReport(let event, let sub):
      "HCI event 0x\(String(event, radix: 16)) subevent \(sub.map { String($0) } ?? "-") is not an LE Advertising Report"
    case .truncated(let needed, let got):
      "LE Advertising Report truncated: needs \(needed) bytes, got \(got)"
    case .parameterLengthMismatch(let declared, let actual):
      "HCI event declares \(declared) parameter bytes but carries \(actual)"
    }
  }
}
