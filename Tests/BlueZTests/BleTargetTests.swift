import Testing

@testable import BlueZ

@Suite struct BleTargetTests {
  @Test func parsesAutoAndAddresses() throws {
    #expect(BleTarget("ble:auto") == .auto)
    let address = try #require(BluetoothAddress("aa:bb:cc:dd:ee:ff"))
    #expect(address.description == "AA:BB:CC:DD:EE:FF")
    #expect(address.littleEndianBytes == [0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA])
    #expect(BleTarget("ble:AA:BB:CC:DD:EE:FF") == .address(address, .public))
    #expect(BleTarget("ble:AA:BB:CC:DD:EE:FF/random") == .address(address, .random))
    #expect(BleTarget("AA:BB:CC:DD:EE:FF/public") == .address(address, .public))
    #expect(
      BleTarget("ble:AA:BB:CC:DD:EE:FF/random")?.description == "ble:AA:BB:CC:DD:EE:FF/random")
  }

  @Test func rejectsNonsense() {
    #expect(BleTarget("ble:AA:BB:CC:DD:EE") == nil)
    #expect(BleTarget("ble:AA:BB:CC:DD:EE:FG") == nil)
    #expect(BleTarget("ble:AA:BB:CC:DD:EE:FF/static") == nil)
    #expect(BleTarget("ble:") == nil)
  }

  @Test func socketAddressMatchesBlueZLayout() {
    let address = BluetoothAddress("C0:11:22:33:44:55")!
    let sa = L2capAttSocket.socketAddress(address, type: .random)
    #expect(sa.l2_family == 31)  // AF_BLUETOOTH
    #expect(sa.l2_psm == 0)
    #expect(sa.l2_cid == 4)
    #expect(sa.l2_bdaddr_type == 0x02)  // BDADDR_LE_RANDOM
    #expect([sa.l2_bdaddr.b.0, sa.l2_bdaddr.b.1, sa.l2_bdaddr.b.5] == [0x55, 0x44, 0xC0])
  }
}
