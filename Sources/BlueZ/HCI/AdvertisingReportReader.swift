#if canImport(Glibc)
  import Glibc
#endif

/// The scanner's reading loop, apart from the adapter so it can run over a
/// socketpair in tests: one HCI event per read, advertising reports out,
/// anything undecodable skipped (a scan must survive one odd controller event).
enum AdvertisingReportReader {
  /// HCI_MAX_EVENT_SIZE: event header plus at most 255 parameter bytes, plus
  /// the packet indicator (Vol 4 Part E §5.4.4).
  static let maxEventSize = 260

  /// Reads `fileDescriptor` on a dedicated thread until the consumer stops
  /// listening or `duration` passes, then runs `stop` on that thread (the
  /// scanner switches scanning off there; `stop` also keeps it alive until then).
  static func reports(
    from fileDescriptor: Int32, duration: Duration?, pollMilliseconds: Int32,
    stop: @escaping @Sendable () -> Void
  ) -> AsyncThrowingStream<AdvertisingReport, any Error> {
    let (stream, continuation) = AsyncThrowingStream.makeStream(
      of: AdvertisingReport.self, throwing: (any Error).self)
    let cancelled = StopFlag()
    continuation.onTermination = { _ in cancelled.set() }
    let clock = ContinuousClock()
    let deadline = duration.map { clock.now + $0 }
    DedicatedThread.start(name: "liftbuddy-hci-scan") {
      defer { stop() }
      var buffer = [UInt8](repeating: 0, count: maxEventSize)
      while !cancelled.isSet {
        if let deadline, clock.now >= deadline { break }
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, pollMilliseconds)
        if ready == 0 || (ready < 0 && errno == EINTR) { continue }
        let count =
          ready < 0
          ? -1 : buffer.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 {
          if errno == EINTR || errno == EAGAIN { continue }
          continuation.finish(throwing: BluetoothError.system(.scan, errno: errno))
          return
        }
        if count == 0 {
          // The socket closed under us: the adapter was unplugged or reset.
          continuation.finish(throwing: BluetoothError.system(.scan, errno: ENODEV))
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
}
