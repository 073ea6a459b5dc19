/// A hotplug change of a tty device, from the udev monitor: lets `serial:auto`
/// reconnect the moment the clip is plugged back in instead of polling.
public enum SerialDeviceEvent: Hashable, Sendable {
  case added(SerialDeviceInfo)
  /// Only the paths are reliable on removal: the device's attributes are gone.
  case removed(devnode: String?, sysPath: String)
}
