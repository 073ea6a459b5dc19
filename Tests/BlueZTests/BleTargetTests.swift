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

  /// An adapter before the peer: `ble:hci1/auto`, `ble:hci0/ADDRESS[/type]`.
  @Test func parsesAnAdapter() throws {
    let address = try #require(BluetoothAddress("C0:11:22:33:44:55"))
    #expect(BleTarget("ble:hci1/auto") == BleTarget(adapter: 1, peer: .auto))
    #expect(BleTarget("ble:hci1/auto")?.description == "ble:hci1/auto")
    #expect(
      BleTarget("ble:hci0/C0:11:22:33:44:55/random")
        == BleTarget(adapter: 0, peer: .address(address, .random)))
    #expect(
      BleTarget("hci12/C0:11:22:33:44:55")?.description == "ble:hci12/C0:11:22:33:44:55/public")
    #expect(BleTarget("ble:hci/auto") == nil)
    #expect(BleTarget("ble:hci16/auto") == nil)
    #expect(BleTarget("ble:hcix/auto") == nil)
    #expect(BleTarget("ble:hci0/") == nil)
    #expect(BleTarget("ble:hci0/hci1/auto") == nil)
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
