import CBluetooth

#if canImport(Glibc)
  import Glibc
#endif

/// One local Bluetooth controller (`hciN`) and whether this process can use it.
///
/// `ble:auto` once took libbluetooth's "first adapter that is up", which is the
/// newest one, and a controller another process holds through the HCI user
/// channel (a second dongle given to a tool, an emulator) looks up too: LE
/// commands on it time out. So every adapter is asked directly: is it there,
/// up, LE-capable, and not held.
public struct HciAdapter: Hashable, Sendable, CustomStringConvertible {
  /// Why an adapter cannot be used; `nil` when it can.
  public enum Unusable: Hashable, Sendable, CustomStringConvertible {
    case down
    case noLowEnergy
    case held
    case failed(errno: Int32)

    public var description: String {
      switch self {
      case .down: "down (`bluetoothctl power on`, or `rfkill unblock bluetooth`)"
      case .noLowEnergy: "no Bluetooth LE support"
      case .held: "held by another process (HCI user channel)"
      case .failed(let code): "not readable (\(BluetoothError.errnoName(code)))"
      }
    }
  }

  /// N of hciN.
  public let id: Int32
  public let address: BluetoothAddress
  public let unusable: Unusable?

  public init(id: Int32, address: BluetoothAddress, unusable: Unusable? = nil) {
    self.id = id
    self.address = address
    self.unusable = unusable
  }

  public var name: String { "hci\(id)" }
  public var description: String { "\(name) (\(address))" }

  /// The highest adapter number the kernel hands out (`HCI_MAX_DEV` is 16).
  static let maxDevices: Int32 = 16

  /// Every adapter the kernel has, in `hciN` order, each with its state.
  /// Throws only when Bluetooth itself is missing (no AF_BLUETOOTH).
  public static func all() throws(BluetoothError) -> [HciAdapter] {
    let probe = socket(
      AF_BLUETOOTH, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), BTPROTO_HCI)
    guard probe >= 0 else { throw .system(.openAdapter, errno: errno) }
    close(probe)
    var adapters: [HciAdapter] = []
    for id in 0..<maxDevices {
      var info = hci_dev_info()
      guard hci_devinfo(id, &info) == 0 else { continue }  // ENODEV: no hciN
      adapters.append(inspect(info))
    }
    return adapters
  }

  /// The adapter to use: `preferred` when it is given and usable, else the
  /// first usable one. The error names every adapter and why it was passed over.
  public static func choose(_ preferred: Int32?) throws(BluetoothError) -> HciAdapter {
    let adapters = try all()
    if let preferred {
      guard let adapter = adapters.first(where: { $0.id == preferred }) else {
        throw .adapterUnusable("hci\(preferred) does not exist" + listing(adapters))
      }
      if let reason = adapter.unusable { throw .adapterUnusable("\(adapter) is \(reason)") }
      return adapter
    }
    guard let adapter = adapters.first(where: { $0.unusable == nil }) else {
      throw .adapterUnusable(
        adapters.isEmpty
          ? "there is no Bluetooth adapter" : "no adapter is usable" + listing(adapters))
    }
    return adapter
  }

  private static func listing(_ adapters: [HciAdapter]) -> String {
    adapters.isEmpty
      ? ""
      : ": "
        + adapters.map { "\($0) \($0.unusable.map(\.description) ?? "usable")" }.joined(
          separator: "; ")
  }

  private static func inspect(_ info: hci_dev_info) -> HciAdapter {
    let id = Int32(info.dev_id)
    let address = withUnsafeBytes(of: info.bdaddr) { BluetoothAddress(littleEndian: $0) }!
    var flags = info.flags
    guard hci_test_bit(Int32(HCI_UP), &flags) != 0 else {
      return HciAdapter(id: id, address: address, unusable: .down)
    }
    // LMP feature page 0, byte 4 bit 6: LE Supported (Controller), Vol 2 Part C §3.3.
    guard info.features.4 & 0x40 != 0 else {
      return HciAdapter(id: id, address: address, unusable: .noLowEnergy)
    }
    let dd = hci_open_dev(id)
    guard dd >= 0 else {
      return HciAdapter(id: id, address: address, unusable: .failed(errno: errno))
    }
    defer { hci_close_dev(dd) }
    switch liftbuddy_hci_probe_held(dd) {
    case 0: return HciAdapter(id: id, address: address)
    case EBUSY: return HciAdapter(id: id, address: address, unusable: .held)
    case let code: return HciAdapter(id: id, address: address, unusable: .failed(errno: code))
    }
  }
}
