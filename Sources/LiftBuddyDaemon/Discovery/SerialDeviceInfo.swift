/// What udev says about one tty device, reduced to what clip matching needs.
/// A plain value so matching can be tested without udev.
public struct SerialDeviceInfo: Hashable, Sendable {
  /// `/dev/ttyUSB0`, `/dev/ttyACM0`.
  public var devnode: String
  /// `/sys/devices/.../ttyUSB0`: stable across the add and remove events.
  public var sysPath: String
  /// The USB device the tty hangs off, when there is one.
  public var usbID: UsbDeviceID?
  /// The USB product string, for messages ("USB2.0-Serial", "Arduino Uno").
  public var product: String?
  /// Set to "1" by the project's udev rule (`ENV{LIFTBUDDY_CLIP}="1"`).
  public var clipProperty: String?

  public init(
    devnode: String, sysPath: String, usbID: UsbDeviceID? = nil, product: String? = nil,
    clipProperty: String? = nil
  ) {
    self.devnode = devnode
    self.sysPath = sysPath
    self.usbID = usbID
    self.product = product
    self.clipProperty = clipProperty
  }

  /// The udev property the project's rule sets on the clip's tty.
  public static let clipPropertyName = "LIFTBUDDY_CLIP"
}
