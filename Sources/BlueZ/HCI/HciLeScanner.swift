import CBluetooth

#if canImport(Glibc)
  import Glibc
#endif

/// An LE scan through a raw HCI socket with libbluetooth's helpers. Unlike
/// connecting, this needs CAP_NET_RAW (the kernel lets unprivileged raw HCI
/// sockets send only a whitelist of commands, and LE Set Scan Parameters is
/// not on it), and it collides with bluetoothd when that is scanning too.
public final class HciLeScanner: Sendable {
  public let deviceID: Int32
  private let socket: Int32

  /// Opens `hciN`, or the first usable adapter when `deviceID` is nil
  /// (`HciAdapter.choose`; libbluetooth's `hci_get_route` would take one that
  /// another process holds).
  public init(deviceID: Int32? = nil) throws(BluetoothError) {
    let id: Int32
    if let deviceID { id = deviceID } else { id = try HciAdapter.choose(nil).id }
    let dd = hci_open_dev(id)
    guard dd >= 0 else { throw .system(.openAdapter, errno: errno) }
    self.deviceID = id
    self.socket = dd
  }

  deinit { hci_close_dev(socket) }

  /// Starts an active scan (so scan responses with names arrive too) and
  /// streams every advertising report until the consumer stops listening; then
  /// scanning is switched off again. With a `duration` the stream ends by itself
  /// after that long. Undecodable events are skipped.
  public func reports(
    duration: Duration? = nil, pollMilliseconds: Int32 = 250
  ) throws(BluetoothError) -> AsyncThrowingStream<AdvertisingReport, any Error> {
    // The socket takes LE meta events before the scan starts. A controller
    // may report an advertiser right after it enables scanning (btvirt
    // reports each advertiser once, there and then): installed after the
    // enable, the filter let the socket's default one (it passes no event)
    // drop what came in between, and a scan in the Debian guest listed the
    // clip without the name its scan response carries. libbluetooth's
    // requests below keep whatever arrives after their Command Complete
    // queued and put this filter back when they return.
    var saved = hci_filter()
    var savedLength = socklen_t(MemoryLayout<hci_filter>.size)
    getsockopt(socket, SOL_HCI, HCI_FILTER, &saved, &savedLength)
    var filter = hci_filter()
    hci_filter_clear(&filter)
    hci_filter_set_ptype(HCI_EVENT_PKT, &filter)
    hci_filter_set_event(EVT_LE_META_EVENT, &filter)
    if setsockopt(socket, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size))
      < 0
    {
      throw .system(.scan, errno: errno)
    }
    let restore = saved
    func giveUp(_ code: Int32) -> BluetoothError {
      var filter = restore
      setsockopt(socket, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size))
      return .system(.scan, errno: code)
    }

    // LE Set Scan Parameters (Vol 4 Part E §7.8.10): active, 10 ms interval and
    // window (0x0010 × 0.625 ms), public own address, accept all.
    if hci_le_set_scan_parameters(
      socket, 0x01, UInt16(0x0010).littleEndian, UInt16(0x0010).littleEndian, 0x00, 0x00, 1000) < 0
    {
      throw giveUp(errno)
    }
    // LE Set Scan Enable (§7.8.11), duplicates not filtered so RSSI stays fresh.
    if hci_le_set_scan_enable(socket, 0x01, 0x00, 1000) < 0 { throw giveUp(errno) }

    return AdvertisingReportReader.reports(
      from: socket, duration: duration, pollMilliseconds: pollMilliseconds
    ) { [self] in
      hci_le_set_scan_enable(socket, 0x00, 0x00, 1000)
      var filter = restore
      setsockopt(socket, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size))
    }
  }

  /// Scans for `duration` and returns every advertiser seen, merged per address,
  /// strongest first.
  public static func collect(for duration: Duration, deviceID: Int32? = nil) async throws
    -> [ScannedDevice]
  {
    let scanner = try HciLeScanner(deviceID: deviceID)
    var devices: [BluetoothAddress: ScannedDevice] = [:]
    for try await report in try scanner.reports(duration: duration) {
      if devices[report.address] != nil {
        devices[report.address]!.merge(report)
      } else {
        devices[report.address] = ScannedDevice(report)
      }
    }
    return devices.values.sorted { ($0.rssi ?? -128) > ($1.rssi ?? -128) }
  }
}
