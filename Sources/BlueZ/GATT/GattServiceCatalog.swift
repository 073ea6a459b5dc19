/// The UART services the clip's BLE modules are known to expose, and the rules
/// for picking the service and the characteristic to subscribe to.
public struct GattServiceCatalog: Sendable {
  public var services: [KnownUartService]

  public init(services: [KnownUartService] = GattServiceCatalog.standard) {
    self.services = services
  }

  /// In order of preference when a device has more than one.
  public static let standard: [KnownUartService] = [
    // Nordic UART Service: TX (peripheral → central) is 6E400003, notify.
    KnownUartService(
      name: "Nordic UART",
      service: BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!,
      preferredCharacteristic: BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!),
    // RedBearLab BLE Mini: 713D0002 notifies the module's UART RX.
    KnownUartService(
      name: "RedBearLab BLE Mini",
      service: BluetoothUUID("713D0000-503E-4C75-BA94-3148F18D941E")!,
      preferredCharacteristic: BluetoothUUID("713D0002-503E-4C75-BA94-3148F18D941E")!),
    // HM-10 / CC254x transparent UART: service FFE0, characteristic FFE1.
    KnownUartService(
      name: "HM-10 (CC254x)", service: BluetoothUUID(0xFFE0),
      preferredCharacteristic: BluetoothUUID(0xFFE1)),
  ]

  /// Service UUIDs, for matching advertisements.
  public var serviceUUIDs: Set<BluetoothUUID> { Set(services.map(\.service)) }

  /// The first known service the device has, in catalog order.
  public func pickService(from discovered: [GattService]) -> (GattService, KnownUartService)? {
    for known in services {
      if let service = discovered.first(where: { $0.uuid == known.service }) {
        return (service, known)
      }
    }
    return nil
  }

  /// The characteristic to subscribe to: one that notifies (else indicates),
  /// preferring the module's usual data characteristic when several qualify.
  public func pickCharacteristic(
    from characteristics: [GattCharacteristic], of known: KnownUartService
  ) -> GattCharacteristic? {
    for wanted in [CharacteristicProperties.notify, .indicate] {
      let candidates = characteristics.filter { $0.properties.contains(wanted) }
      if let preferred = candidates.first(where: { $0.uuid == known.preferredCharacteristic }) {
        return preferred
      }
      if let first = candidates.first { return first }
    }
    return nil
  }
}
