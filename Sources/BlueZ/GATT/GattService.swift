/// A primary service as found by Discover All Primary Services
/// (Core Spec Vol 3 Part G §4.4.1): its UUID and the handles it spans.
public struct GattService: Hashable, Sendable {
  public var uuid: BluetoothUUID
  public var handles: AttHandleRange
  public init(uuid: BluetoothUUID, handles: AttHandleRange) {
    self.uuid = uuid
    self.handles = handles
  }
}
