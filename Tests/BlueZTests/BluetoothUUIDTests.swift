import Testing

@testable import BlueZ

@Suite struct BluetoothUUIDTests {
  @Test func sixteenBitAliasesTheBaseUUID() throws {
    let full = try #require(BluetoothUUID("00002902-0000-1000-8000-00805F9B34FB"))
    #expect(full == BluetoothUUID(0x2902))
    #expect(full.uuid16 == 0x2902)
    #expect(full.description == "2902")
    #expect(full.littleEndianBytes == [0x02, 0x29])
    #expect(BluetoothUUID("0xFFE0") == BluetoothUUID(0xFFE0))
  }

  @Test func vendorUUIDIsLittleEndianOnTheWire() throws {
    let nus = try #require(BluetoothUUID("6e400001-b5a3-f393-e0a9-e50e24dcca9e"))
    #expect(nus.uuid16 == nil)
    #expect(nus.littleEndianBytes == AttPDUTests.nusServiceWire)
    #expect(BluetoothUUID(littleEndian: AttPDUTests.nusServiceWire) == nus)
    #expect(nus.description == "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")
  }

  @Test func rejectsMalformedText() {
    #expect(BluetoothUUID("FFE") == nil)
    #expect(BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9") == nil)
    #expect(BluetoothUUID("6E400001B5A3-F393-E0A9-E50E24DCCA9E0") == nil)
    #expect(BluetoothUUID("ZZZZ") == nil)
    #expect(BluetoothUUID(littleEndian: [0x01, 0x02, 0x03]) == nil)
  }
}
