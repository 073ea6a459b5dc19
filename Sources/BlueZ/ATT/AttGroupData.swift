/// One Attribute Data element of a Read By Group Type Response: a group's
/// first and last handle and the grouping attribute's value, which for primary
/// service discovery is the service UUID (Core Spec Vol 3 Part F §3.4.4.10).
public struct AttGroupData: Hashable, Sendable {
  public var handle: UInt16
  public var endGroupHandle: UInt16
  public var value: [UInt8]
  public init(handle: UInt16, endGroupHandle: UInt16, value: [UInt8]) {
    self.handle = handle
    self.endGroupHandle = endGroupHandle
    self.value = value
  }
}
