/// Decides whether an advertiser is a LiftBuddy clip: by a known UART service
/// UUID in its advertisement, or by its name. Both, because HM-10 modules
/// often advertise only their name ("HMSoft") and nRF boards often only the
/// service.
public struct ClipAdvertisementMatcher: Sendable {
  public var serviceUUIDs: Set<BluetoothUUID>
  /// Case-insensitive name prefixes.
  public var namePrefixes: [String]

  public init(
    serviceUUIDs: Set<BluetoothUUID> = GattServiceCatalog().serviceUUIDs,
    namePrefixes: [String] = ClipAdvertisementMatcher.defaultNamePrefixes
  ) {
    self.serviceUUIDs = serviceUUIDs
    self.namePrefixes = namePrefixes
  }

  /// The firmware's name, then the factory names of the supported modules.
  public static let defaultNamePrefixes = ["LiftBuddy", "HMSoft", "BLE Mini", "Biscuit"]

  public func matches(name: String?, services: [BluetoothUUID]) -> Bool {
    if services.contains(where: serviceUUIDs.contains) { return true }
    guard let name = name?.lowercased() else { return false }
    return namePrefixes.contains { name.hasPrefix($0.lowercased()) }
  }

  public func matches(_ report: AdvertisingReport) -> Bool {
    matches(name: report.data.localName, services: report.data.serviceUUIDs)
  }

  public func matches(_ device: ScannedDevice) -> Bool {
    matches(name: device.name, services: device.serviceUUIDs)
  }
}
