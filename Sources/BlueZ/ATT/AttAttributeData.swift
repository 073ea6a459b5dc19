/// One Attribute Data element of a Read By Type Response: a handle and the
/// attribute's value (Core Spec Vol 3 Part F §3.4.4.2). For characteristic
/// discovery the value is a characteristic declaration (Vol 3 Part G §3.3.1).
public struct AttAttributeData: Hashable, Sendable {
  public var handle: UInt16
  public var value: [UInt8]
  public init(handle: UInt16, value: [UInt8]) {
    self.handle = handle
    self.value = value
  }
}
