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

  /// Opens `hciN`, or the first adapter when `deviceID` is nil.
  public init(deviceID: Int32? = nil) throws(BluetoothError) {
    let id = deviceID ?? hci_get_route(nil)
    guard id >= 0 else { throw .system(.openAdapter, errno: errno) }
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
    // LE Set Scan Parameters (Vol 4 Part E §7.8.10): active, 10 ms interval and
    // window (0x0010 × 0.625 ms), public own address, accept all.
    if hci_le_set_scan_parameters(
      socket, 0x01, UInt16(0x0010).littleEndian, UInt16(0x0010).littleEndian, 0x00, 0x00, 1000) < 0
    {
      throw .system(.scan, errno: errno)
    }
    // LE Set Scan Enable (§7.8.11), duplicates not filtered so RSSI stays fresh.
    if hci_le_set_scan_enable(socket, 0x01, 0x00, 1000) < 0 { throw .system(.scan, errno: errno) }

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
      let code = errno
      hci_le_set_scan_enable(socket, 0x00, 0x00, 1000)
      throw .system(.scan, errno: code)
    }

    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: AdvertisingReport.self, throwing: (any Error).self)
    let stop = StopFlag()
    continuation.onTermination = { _ in stop.set() }
    let restore = saved
    let clock = ContinuousClock()
    let deadline = duration.map { clock.now + $0 }
    DedicatedThread.start(name: "liftbuddy-hci-scan") { [self] in
      defer {
        hci_le_set_scan_enable(socket, 0x00, 0x00, 1000)
        var filter = restore
        setsockopt(socket, SOL_HCI, HCI_FILTER, &filter, socklen_t(MemoryLayout<hci_filter>.size))
      }
      var buffer = [UInt8](repeating: 0, count: Int(HCI_MAX_EVENT_SIZE))
      while !stop.isSet {
        if let deadline, clock.now >= deadline { break }
        var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, pollMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { continue }
        let count =
          ready < 0 ? -1 : buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          continuation.finish(throwing: BluetoothError.system(.scan, errno: errno))
          return
        }
        guard let reports = try? AdvertisingReport.parse(hciEventPacket: Array(buffer[0..<count]))
        else { continue }
        for report in reports { continuation.yield(report) }
      }
      continuation.finish()
    }
    return stream
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
