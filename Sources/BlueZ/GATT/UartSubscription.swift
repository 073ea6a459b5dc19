/// The outcome of setting up a clip's GATT link: which service and
/// characteristic carry its lines, and the link handed over to receive their
/// notifications.
public struct UartSubscription: Sendable {
  public var known: KnownUartService
  public var service: GattService
  public var characteristic: GattCharacteristic
  /// Nil when the characteristic has no CCCD (see `start`).
  public var cccdHandle: UInt16?
  public var mtu: UInt16
  /// The link, ready to be read for notifications: their payloads are raw
  /// bytes, a line may span several, one may hold many.
  public var notifications: GattNotificationReceiver

  /// Runs the whole setup on a connected bearer: Exchange MTU, primary service
  /// discovery, characteristic discovery in the first known UART service,
  /// descriptor discovery for its CCCD, then writes 0x0001 (notify) or 0x0002
  /// (indicate-only characteristics) to it (Core Spec Vol 3 Part G §4.10, §3.3.3.3).
  /// A notifying characteristic without a CCCD breaks §3.3.3.3, but some HM-10
  /// clones are built that way and notify regardless: we listen anyway rather
  /// than refuse a clip that works.
  /// Blocking: call it from `DedicatedThread.run`.
  public static func start(
    on client: GattClient, catalog: GattServiceCatalog = GattServiceCatalog()
  ) throws(BluetoothError) -> UartSubscription {
    let mtu = try client.exchangeMTU()
    let services = try client.discoverPrimaryServices()
    guard let (service, known) = catalog.pickService(from: services) else {
      throw .noUartService(found: services.map(\.uuid))
    }
    let characteristics = try client.discoverCharacteristics(of: service)
    guard let characteristic = catalog.pickCharacteristic(from: characteristics, of: known) else {
      throw .noNotifyCharacteristic(service: service.uuid)
    }
    let range = GattClient.descriptorRange(of: characteristic, among: characteristics, in: service)
    let descriptors =
      try range.map { range throws(BluetoothError) in try client.discoverDescriptors(in: range) }
      ?? []
    let cccd = descriptors.first { $0.type == GattAttributeType.clientCharacteristicConfiguration }
    if let cccd {
      let useNotify = characteristic.properties.contains(.notify)
      try client.write(useNotify ? [0x01, 0x00] : [0x02, 0x00], to: cccd.handle)
    }
    return UartSubscription(
      known: known, service: service, characteristic: characteristic, cccdHandle: cccd?.handle,
      mtu: mtu,
      notifications: try client.receiveNotifications(from: characteristic.valueHandle))
  }
}
