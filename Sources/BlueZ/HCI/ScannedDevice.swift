/// What a scan knows about one advertiser, merged over its reports: a device
/// typically puts its service UUIDs in the advertisement and its name in the
/// scan response, so neither report alone identifies a clip.
public struct ScannedDevice: Hashable, Sendable {
  public var address: BluetoothAddress
  public var addressType: LEAddressType
  public var name: String?
  public var serviceUUIDs: [BluetoothUUID]
  /// The latest RSSI in dBm.
  public var rssi: Int8?
  public var connectable: Bool

  public init(_ report: AdvertisingReport) {
    address = report.address
    addressType = report.addressType ?? .public
    name = report.data.localName
    serviceUUIDs = report.data.serviceUUIDs
    rssi = report.rssi
    connectable = report.eventType == 0x00 || report.eventType == 0x01
  }

  /// Folds in a later report from the same address; a complete name wins
  /// over none, new UUIDs are added.
  public mutating func merge(_ report: AdvertisingReport) {
    if let newName = report.data.localName { name = newName }
    for uuid in report.data.serviceUUIDs where !serviceUUIDs.contains(uuid) {
      serviceUUIDs.append(uuid)
    }
    if let newRSSI = report.rssi { rssi = newRSSI }
    if report.eventType == 0x00 || report.eventType == 0x01 { connectable = true }
  }

  /// The `--source` value that connects to this device.
  public var target: BleTarget { .address(address, addressType) }
}
