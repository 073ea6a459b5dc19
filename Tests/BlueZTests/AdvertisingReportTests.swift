import Testing

@testable import BlueZ

/// HCI LE Advertising Report events (Core Spec Vol 4 Part E §7.7.65.2) as a raw
/// HCI socket delivers them: packet indicator, event code, length, parameters.
@Suite struct AdvertisingReportTests {
  static let nusAdvertisement: [UInt8] =
    [0x02, 0x01, 0x06, 0x11, 0x07] + AttPDUTests.nusServiceWire
  static let hm10ScanResponse: [UInt8] =
    [0x07, 0x09] + Array("HMSoft".utf8) + [0x03, 0x03, 0xE0, 0xFF]

  static let twoReports: [UInt8] =
    [0x04, 0x3E, 55, 0x02, 0x02]
    // ADV_IND from random C0:11:22:33:44:55, 21 bytes of data, RSSI -69 dBm (0xBB)
    + [0x00, 0x01, 0x55, 0x44, 0x33, 0x22, 0x11, 0xC0, 21] + nusAdvertisement + [0xBB]
    // SCAN_RSP from public 11:22:33:44:55:66, 12 bytes, RSSI -45 dBm (0xD3)
    + [0x04, 0x00, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 12] + hm10ScanResponse + [0xD3]

  @Test func multipleReportsInOneEvent() throws {
    let reports = try AdvertisingReport.parse(hciEventPacket: Self.twoReports)
    #expect(reports.count == 2)

    #expect(reports[0].eventType == 0x00)
    #expect(reports[0].addressType == .random)
    #expect(reports[0].address.description == "C0:11:22:33:44:55")
    #expect(reports[0].rssi == -69)
    #expect(reports[0].data.flags == 0x06)
    #expect(
      reports[0].data.serviceUUIDs == [BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!])
    #expect(reports[0].data.localName == nil)

    #expect(reports[1].eventType == 0x04)
    #expect(reports[1].addressType == .public)
    #expect(reports[1].address.description == "11:22:33:44:55:66")
    #expect(reports[1].rssi == -45)
    #expect(reports[1].data.localName == "HMSoft")
    #expect(reports[1].data.serviceUUIDs == [BluetoothUUID(0xFFE0)])
  }

  @Test func rssiNotAvailableAndIdentityAddressTypes() throws {
    let packet: [UInt8] = [0x04, 0x3E, 12, 0x02, 0x01, 0x03, 0x03, 1, 2, 3, 4, 5, 6, 0, 0x7F]
    let report = try #require(try AdvertisingReport.parse(hciEventPacket: packet).first)
    #expect(report.rssi == nil)
    #expect(report.hciAddressType == 0x03)
    #expect(report.addressType == .random)
    #expect(report.data.structures.isEmpty)
  }

  @Test func malformedEventsThrow() {
    var cut = Self.twoReports
    cut.removeLast()
    #expect(throws: HciDecodingError.parameterLengthMismatch(declared: 55, actual: 54)) {
      try AdvertisingReport.parse(hciEventPacket: cut)
    }
    // Claims three reports, carries two.
    var extra = Self.twoReports
    extra[4] = 3
    #expect(throws: HciDecodingError.self) { try AdvertisingReport.parse(hciEventPacket: extra) }
    // Data_Length runs past the end.
    let overlong: [UInt8] = [0x04, 0x3E, 12, 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 9, 0xC0]
    #expect(throws: HciDecodingError.truncated(needed: 24, got: 15)) {
      try AdvertisingReport.parse(hciEventPacket: overlong)
    }
    #expect(throws: HciDecodingError.notAnEventPacket(0x02)) {
      try AdvertisingReport.parse(hciEventPacket: [0x02, 0x3E, 0])
    }
    // LE Connection Complete (subevent 0x01) is not ours.
    #expect(throws: HciDecodingError.notAnAdvertisingReport(event: 0x3E, subevent: 0x01)) {
      try AdvertisingReport.parse(hciEventPacket: [0x04, 0x3E, 1, 0x01])
    }
    #expect(throws: HciDecodingError.self) { try AdvertisingReport.parse(hciEventPacket: []) }
  }

  @Test func advertisingDataIsLenient() {
    // Shortened name, then zero-length padding that ends the significant part.
    let padded = AdvertisingData([0x05, 0x08] + Array("Lift".utf8) + [0x00, 0x00, 0x00])
    #expect(padded.localName == "Lift")
    #expect(!padded.isTruncated)
    // A complete name beats the shortened one.
    let both = AdvertisingData([0x03, 0x08, 0x4C, 0x42, 0x0A, 0x09] + Array("LiftBuddy".utf8))
    #expect(both.localName == "LiftBuddy")
    // The second structure claims 16 bytes but has 2: the first still counts.
    let broken = AdvertisingData([0x03, 0x02, 0xE0, 0xFF, 0x11, 0x07, 0x01, 0x02])
    #expect(broken.isTruncated)
    #expect(broken.serviceUUIDs == [BluetoothUUID(0xFFE0)])
    // 16-bit list of two UUIDs (incomplete list, type 0x02).
    #expect(
      AdvertisingData([0x05, 0x02, 0x0F, 0x18, 0xE0, 0xFF]).serviceUUIDs == [
        BluetoothUUID(0x180F), BluetoothUUID(0xFFE0),
      ])
  }

  @Test func clipMatcherAndMerge() throws {
    let reports = try AdvertisingReport.parse(hciEventPacket: Self.twoReports)
    let matcher = ClipAdvertisementMatcher()
    #expect(matcher.matches(reports[0]))  // by NUS service UUID
    #expect(matcher.matches(reports[1]))  // by FFE0 and by name
    let stranger = AdvertisingReport(
      eventType: 0, hciAddressType: 0, address: BluetoothAddress("01:02:03:04:05:06")!,
      data: AdvertisingData([0x06, 0x09] + Array("Watch".utf8) + [0x03, 0x03, 0x0D, 0x18]),
      rssi: -50)
    #expect(!matcher.matches(stranger))

    // Advertisement with the service, then a scan response with the name.
    var device = ScannedDevice(reports[0])
    let response = AdvertisingReport(
      eventType: 0x04, hciAddressType: 0x01, address: reports[0].address,
      data: AdvertisingData([0x0A, 0x09] + Array("LiftBuddy".utf8)), rssi: -71)
    device.merge(response)
    #expect(device.name == "LiftBuddy")
    #expect(device.rssi == -71)
    #expect(device.connectable)
    #expect(device.target.description == "ble:C0:11:22:33:44:55/random")
  }
}
