import Testing

@testable import LiftBuddyDaemon

@Suite struct DiscoveryMatcherTests {
  func tty(_ node: String, _ id: UsbDeviceID?, clip: String? = nil) -> SerialDeviceInfo {
    SerialDeviceInfo(
      devnode: node, sysPath: "/sys/devices/fake/\(node.split(separator: "/").last!)", usbID: id,
      clipProperty: clip)
  }

  @Test func parsesUdevHexStrings() {
    #expect(
      UsbDeviceID(vendor: "1a86", product: "7523") == UsbDeviceID(vendor: 0x1A86, product: 0x7523))
    #expect(UsbDeviceID(vendor: "2341", product: "8036\n")?.description == "2341:8036")
    #expect(UsbDeviceID(vendor: "zz", product: "7523") == nil)
    #expect(UsbDeviceID(vendor: nil, product: "7523") == nil)
    #expect(UsbDeviceID(vendor: 0x403, product: 0x6001).description == "0403:6001")
  }

  @Test func everyListedChipMatches() {
    let ids: [(UInt16, UInt16)] = [
      (0x1A86, 0x7523), (0x1A86, 0x5523), (0x10C4, 0xEA60), (0x0403, 0x6001), (0x0403, 0x6015),
      (0x2341, 0x0043), (0x2341, 0x0001), (0x2341, 0x0042), (0x2A03, 0x0043), (0x2341, 0x8036),
    ]
    let matcher = SerialClipMatcher()
    for (v, p) in ids {
      #expect(
        matcher.match(tty("/dev/ttyUSB0", UsbDeviceID(vendor: v, product: p))) != nil, "\(v):\(p)")
    }
    // A USB modem or a Bluetooth dongle is not a clip; neither is an on-board UART.
    #expect(matcher.match(tty("/dev/ttyACM3", UsbDeviceID(vendor: 0x1199, product: 0x9071))) == nil)
    #expect(matcher.match(tty("/dev/ttyS0", nil)) == nil)
  }

  @Test func rankingPrefersRuleThenBoardThenBridge() {
    let devices = [
      tty("/dev/ttyUSB1", UsbDeviceID(vendor: 0x1A86, product: 0x7523)),
      tty("/dev/ttyS0", nil),
      tty("/dev/ttyACM0", UsbDeviceID(vendor: 0x2341, product: 0x0043)),
      tty("/dev/ttyUSB0", UsbDeviceID(vendor: 0x10C4, product: 0xEA60)),
      tty("/dev/ttyUSB7", UsbDeviceID(vendor: 0x1199, product: 0x9071), clip: "1"),
    ]
    let ranked = SerialClipMatcher().candidates(devices)
    #expect(
      ranked.map(\.device.devnode) == [
        "/dev/ttyUSB7", "/dev/ttyACM0", "/dev/ttyUSB0", "/dev/ttyUSB1",
      ])
    #expect(ranked[0].reason == .projectRule)
    #expect(ranked[1].reason == .knownDevice(.arduinoBoard, name: "Arduino Uno"))
    #expect(ranked[2].description == "/dev/ttyUSB0 (Silicon Labs CP210x 10c4:ea60)")
    #expect(SerialClipMatcher().best([tty("/dev/ttyS0", nil)]) == nil)
  }

  @Test func ruleValueMustBeOne() {
    #expect(SerialClipMatcher().match(tty("/dev/ttyUSB0", nil, clip: "0")) == nil)
    #expect(SerialClipMatcher().match(tty("/dev/ttyUSB0", nil, clip: "1"))?.reason == .projectRule)
  }
}
