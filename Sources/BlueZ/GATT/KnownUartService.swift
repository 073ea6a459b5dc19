/// A serial-over-BLE service a clip may expose. The characteristic UUID is only
/// a tie-breaker: modules differ in which characteristic notifies (the HM-10's
/// single FFE1 does both directions), so the data characteristic is chosen by
/// its Notify property.
public struct KnownUartService: Hashable, Sendable {
  public var name: String
  public var service: BluetoothUUID
  public var preferredCharacteristic: BluetoothUUID

  public init(name: String, service: BluetoothUUID, preferredCharacteristic: BluetoothUUID) {
    self.name = name
    self.service = service
    self.preferredCharacteristic = preferredCharacteristic
  }
}
