/// One device's advertisement from an HCI LE Advertising Report event
/// (Core Spec Vol 4 Part E §7.7.65.2).
public struct AdvertisingReport: Hashable, Sendable {
  /// Event_Type (§7.7.65.2): 0x00 ADV_IND, 0x01 ADV_DIRECT_IND, 0x02
  /// ADV_SCAN_IND, 0x03 ADV_NONCONN_IND, 0x04 SCAN_RSP.
  public var eventType: UInt8
  /// Address_Type as sent: 0x00 public, 0x01 random, 0x02/0x03 identity addresses.
  public var hciAddressType: UInt8
  public var address: BluetoothAddress
  public var data: AdvertisingData
  /// dBm; nil when the controller sent 127, "RSSI is not available".
  public var rssi: Int8?

  public init(
    eventType: UInt8, hciAddressType: UInt8, address: BluetoothAddress, data: AdvertisingData,
    rssi: Int8?
  ) {
    self.eventType = eventType
    self.hciAddressType = hciAddressType
    self.address = address
    self.data = data
    self.rssi = rssi
  }

  /// The type to connect with; nil for a value the spec does not define.
  public var addressType: LEAddressType? { LEAddressType(hciAddressType: hciAddressType) }

  /// Only these event types accept a connection (ADV_IND, ADV_DIRECT_IND); a
  /// SCAN_RSP belongs to a connectable advertiser when it answers an ADV_IND.
  public var isConnectable: Bool { eventType == 0x00 || eventType == 0x01 || eventType == 0x04 }

  static let hciEventPacket: UInt8 = 0x04  // HCI_EVENT_PKT, the H:4 packet indicator
  static let leMetaEvent: UInt8 = 0x3E  // EVT_LE_META_EVENT, Vol 4 Part E §7.7.65
  static let advertisingReportSubevent: UInt8 = 0x02  // EVT_LE_ADVERTISING_REPORT

  /// Parses an event as read from a raw HCI socket: packet indicator 0x04,
  /// event code 0x3E, parameter length, subevent 0x02, Num_Reports, then per
  /// report Event_Type, Address_Type, Address (6, little-endian), Data_Length,
  /// Data, RSSI (signed) — the per-report layout the Linux kernel and BlueZ
  /// (`le_advertising_info`) read.
  public static func parse(hciEventPacket packet: [UInt8]) throws(HciDecodingError)
    -> [AdvertisingReport]
  {
    guard packet.count >= 3 else { throw .truncated(needed: 3, got: packet.count) }
    guard packet[0] == hciEventPacket else { throw .notAnEventPacket(packet[0]) }
    let declared = Int(packet[2])
    guard packet.count - 3 == declared else {
      throw .parameterLengthMismatch(declared: declared, actual: packet.count - 3)
    }
    guard packet[1] == leMetaEvent, declared >= 1, packet[3] == advertisingReportSubevent else {
      throw .notAnAdvertisingReport(event: packet[1], subevent: declared >= 1 ? packet[3] : nil)
    }
    guard declared >= 2 else { throw .truncated(needed: 5, got: packet.count) }
    let count = Int(packet[4])
    var offset = 5
    var reports: [AdvertisingReport] = []
    for _ in 0..<count {
      // Event_Type, Address_Type, Address, Data_Length
      guard offset + 9 <= packet.count else {
        throw .truncated(needed: offset + 9, got: packet.count)
      }
      let length = Int(packet[offset + 8])
      let rssiIndex = offset + 9 + length
      guard rssiIndex < packet.count else {
        throw .truncated(needed: rssiIndex + 1, got: packet.count)
      }
      let rssi = Int8(bitPattern: packet[rssiIndex])
      reports.append(
        AdvertisingReport(
          eventType: packet[offset],
          hciAddressType: packet[offset + 1],
          address: BluetoothAddress(littleEndian: packet[offset + 2..<offset + 8])!,
          data: AdvertisingData(Array(packet[offset + 9..<rssiIndex])),
          rssi: rssi == 127 ? nil : rssi))
      offset = rssiIndex + 1
    }
    return reports
  }
}
