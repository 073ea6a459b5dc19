/// One Information Data element of a Find Information Response: a handle and
/// its attribute type (Core Spec Vol 3 Part F §3.4.3.2). Descriptor discovery
/// looks for the CCCD's type 0x2902 here.
public struct AttHandleUUID: Hashable, Sendable {
  public var handle: UInt16
  public var type: BluetoothUUID
  public init(handle: UInt16, type: BluetoothUUID) {
    self.handle = handle
    self.type = type
  }
}
