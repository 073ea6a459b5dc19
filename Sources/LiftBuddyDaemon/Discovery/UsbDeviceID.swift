/// A USB vendor:product pair, the only stable thing a USB-serial adapter tells
/// us about itself (many CH340 clones have no serial number).
public struct UsbDeviceID: Hashable, Sendable, CustomStringConvertible {
  public var vendor: UInt16
  public var product: UInt16

  public init(vendor: UInt16, product: UInt16) {
    self.vendor = vendor
    self.product = product
  }

  /// From udev's 4-hex-digit strings (`ID_VENDOR_ID=1a86`, sysattr `idVendor`).
  public init?(vendor: String?, product: String?) {
    guard let vendor, let product,
      let v = UInt16(vendor.filter { !$0.isWhitespace }, radix: 16),
      let p = UInt16(product.filter { !$0.isWhitespace }, radix: 16)
    else { return nil }
    self.init(vendor: v, product: p)
  }

  /// `1a86:7523`, as lsusb prints it.
  public var description: String { Self.hex(vendor) + ":" + Self.hex(product) }

  private static func hex(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }
}
