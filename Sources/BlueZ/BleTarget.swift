/// What a `ble:` source names: one known clip, or "scan and pick the clip".
///
/// Text form (after the `ble:` prefix, which the caller strips or keeps):
/// `auto`, `AA:BB:CC:DD:EE:FF` (public address) or
/// `AA:BB:CC:DD:EE:FF/random` / `.../public`. `liftbuddy scan` prints exactly
/// this form so a line can be pasted into the config.
public enum BleTarget: Hashable, Sendable, CustomStringConvertible {
  case auto
  case address(BluetoothAddress, LEAddressType)

  public init?(_ text: String) {
    var body = Substring(text)
    if body.hasPrefix("ble:") { body = body.dropFirst(4) }
    if body == "auto" {
      self = .auto
      return
    }
    let pieces = body.split(separator: "/", omittingEmptySubsequences: false)
    guard pieces.count <= 2, let address = BluetoothAddress(String(pieces[0])) else { return nil }
    var type = LEAddressType.public
    if pieces.count == 2 {
      guard let named = LEAddressType(rawValue: pieces[1].lowercased()) else { return nil }
      type = named
    }
    self = .address(address, type)
  }

  public var description: String {
    switch self {
    case .auto: "ble:auto"
    case .address(let address, let type): "ble:\(address)/\(type.rawValue)"
    }
  }
}
