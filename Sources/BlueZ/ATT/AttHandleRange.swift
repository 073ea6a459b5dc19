/// The Starting/Ending Handle pair of the find and read-by-type requests
/// (Core Spec Vol 3 Part F §3.4.3.1). Handles are 0x0001...0xFFFF; 0 is reserved.
public struct AttHandleRange: Hashable, Sendable {
  public var start: UInt16
  public var end: UInt16
  public init(start: UInt16, end: UInt16) {
    self.start = start
    self.end = end
  }
  /// The whole database, where primary service discovery starts (Vol 3 Part G §4.4.1).
  public static let all = AttHandleRange(start: 0x0001, end: 0xFFFF)
}
