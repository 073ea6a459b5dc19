/// A tty that may be the clip, and why we think so; the reason orders the
/// candidates and goes into the `connected` status so a wrong pick is visible.
public struct SerialClipMatch: Hashable, Sendable, CustomStringConvertible {
  public enum Reason: Hashable, Sendable, Comparable {
    /// The project's udev rule marked it: the user said so.
    case projectRule
    case knownDevice(KnownSerialChip.Kind, name: String)

    var rank: Int {
      switch self {
      case .projectRule: 0
      case .knownDevice(let kind, _): kind.rawValue
      }
    }

    public static func < (lhs: Reason, rhs: Reason) -> Bool { lhs.rank < rhs.rank }
  }

  public var device: SerialDeviceInfo
  public var reason: Reason

  public init(device: SerialDeviceInfo, reason: Reason) {
    self.device = device
    self.reason = reason
  }

  public var description: String {
    let id = device.usbID.map { " \($0)" } ?? ""
    switch reason {
    case .projectRule: return "\(device.devnode) (\(SerialDeviceInfo.clipPropertyName)=1\(id))"
    case .knownDevice(_, let name): return "\(device.devnode) (\(name)\(id))"
    }
  }
}
