/// What a `ble:` source names: which clip (one known address, or "scan and
/// pick the clip"), and optionally through which local adapter.
///
/// Text form (after the `ble:` prefix, which the caller strips or keeps):
/// `auto`, `AA:BB:CC:DD:EE:FF` (public address) or
/// `AA:BB:CC:DD:EE:FF/random` / `.../public`, each optionally preceded by an
/// adapter, `hci1/auto` or `hci0/AA:BB:CC:DD:EE:FF/random`. Without one the
/// first usable adapter is taken (`HciAdapter.choose`). `liftbuddy scan`
/// prints the address form so a line can be pasted into the config.
public struct BleTarget: Hashable, Sendable, CustomStringConvertible {
  public enum Peer: Hashable, Sendable {
    case auto
    case address(BluetoothAddress, LEAddressType)
  }

  /// N of hciN, or nil for "the first usable adapter".
  public var adapter: Int32?
  public var peer: Peer

  public init(adapter: Int32? = nil, peer: Peer) {
    self.adapter = adapter
    self.peer = peer
  }

  public static let auto = BleTarget(peer: .auto)
  public static func address(_ address: BluetoothAddress, _ type: LEAddressType) -> BleTarget {
    BleTarget(peer: .address(address, type))
  }

  public init?(_ text: String) {
    var body = Substring(text)
    if body.hasPrefix("ble:") { body = body.dropFirst(4) }
    var adapter: Int32?
    if body.hasPrefix("hci"), let slash = body.firstIndex(of: "/") {
      guard let number = Int32(body[body.index(body.startIndex, offsetBy: 3)..<slash]),
        (0..<16).contains(number)
      else { return nil }
      adapter = number
      body = body[body.index(after: slash)...]
    }
    if body == "auto" {
      self.init(adapter: adapter, peer: .auto)
      return
    }
    let pieces = body.split(separator: "/", omittingEmptySubsequences: false)
    guard pieces.count <= 2, let address = BluetoothAddress(String(pieces[0])) else { return nil }
    var type = LEAddressType.public
    if pieces.count == 2 {
      guard let named = LEAddressType(rawValue: pieces[1].lowercased()) else { return nil }
      type = named
    }
    self.init(adapter: adapter, peer: .address(address, type))
  }

  public var description: String {
    let via = adapter.map { "hci\($0)/" } ?? ""
    return switch peer {
    case .auto: "ble:\(via)auto"
    case .address(let address, let type): "ble:\(via)\(address)/\(type.rawValue)"
    }
  }
}
