/// USB serial devices a clip is built on: the Arduino boards themselves and
/// the USB-UART bridges on clones and on the BLE-less clip variant.
public struct KnownSerialChip: Hashable, Sendable {
  public enum Kind: Int, Hashable, Sendable, Comparable {
    /// An Arduino board's own USB interface: almost certainly the clip.
    case arduinoBoard = 1
    /// A generic USB-UART bridge: could be the clip or any other serial gadget.
    case usbSerialBridge = 2

    public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  public var id: UsbDeviceID
  public var name: String
  public var kind: Kind

  public init(_ vendor: UInt16, _ product: UInt16, _ name: String, _ kind: Kind) {
    id = UsbDeviceID(vendor: vendor, product: product)
    self.name = name
    self.kind = kind
  }

  public static let all: [KnownSerialChip] = [
    KnownSerialChip(0x2341, 0x0043, "Arduino Uno", .arduinoBoard),
    KnownSerialChip(0x2341, 0x0001, "Arduino Uno (early)", .arduinoBoard),
    KnownSerialChip(0x2341, 0x0243, "Arduino Uno (16U2)", .arduinoBoard),
    KnownSerialChip(0x2341, 0x0042, "Arduino Mega 2560", .arduinoBoard),
    KnownSerialChip(0x2341, 0x0010, "Arduino Mega 2560 (early)", .arduinoBoard),
    KnownSerialChip(0x2341, 0x8036, "Arduino Leonardo", .arduinoBoard),
    KnownSerialChip(0x2341, 0x8037, "Arduino Micro", .arduinoBoard),
    KnownSerialChip(0x2341, 0x0058, "Arduino Nano Every", .arduinoBoard),
    KnownSerialChip(0x2a03, 0x0043, "Arduino Uno (arduino.org)", .arduinoBoard),
    KnownSerialChip(0x2a03, 0x0042, "Arduino Mega 2560 (arduino.org)", .arduinoBoard),
    KnownSerialChip(0x2a03, 0x8036, "Arduino Leonardo (arduino.org)", .arduinoBoard),
    KnownSerialChip(0x1a86, 0x7523, "CH340/CH341", .usbSerialBridge),
    KnownSerialChip(0x1a86, 0x5523, "CH341 (serial mode)", .usbSerialBridge),
    KnownSerialChip(0x10c4, 0xea60, "Silicon Labs CP210x", .usbSerialBridge),
    KnownSerialChip(0x0403, 0x6001, "FTDI FT232R", .usbSerialBridge),
    KnownSerialChip(0x0403, 0x6015, "FTDI FT-X", .usbSerialBridge),
  ]
}
