/// `serial:auto` looked and found no clip. Lists what it did see, because the
/// usual cause is an adapter whose vendor:product we do not know yet.
public struct NoSerialClipError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The USB ttys that were present but matched nothing.
  public var unmatched: [SerialDeviceInfo]

  public init(unmatched: [SerialDeviceInfo]) {
    self.unmatched = unmatched
  }

  public var description: String {
    if unmatched.isEmpty {
      return
        "serial:auto found no USB serial device: is the clip plugged in? (`dmesg` shows it arriving); or name the port, e.g. serial:/dev/ttyUSB0"
    }
    let seen = unmatched.map { "\($0.devnode) \($0.usbID.map(\.description) ?? "?")" }.joined(
      separator: ", ")
    return
      "serial:auto found no known clip among \(seen): mark yours with the udev rule (\(SerialDeviceInfo.clipPropertyName)=1) or name the port, e.g. serial:\(unmatched[0].devnode)"
  }
}
