import Synchronization
import Testing

@testable import BlueZ

#if canImport(Glibc)
  import Glibc
#endif

/// The scanner's read loop over a socketpair standing in for the raw HCI socket.
@Suite(.timeLimit(.minutes(1))) struct AdvertisingReportReaderTests {
  func pair() throws -> (reader: Int32, writer: Int32) {
    var fds: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
    return (fds[0], fds[1])
  }

  func send(_ fd: Int32, _ packet: [UInt8]) {
    _ = packet.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  }

  /// Reports come out in order; a Command Complete event and a truncated report
  /// in between are skipped; when the adapter's socket closes the stream ends
  /// with an error and the stop action (scan disable) has run.
  @Test func yieldsReportsSkipsJunkAndEndsWhenTheSocketCloses() async throws {
    let (reader, writer) = try pair()
    defer { close(reader) }
    let stopped = Mutex(false)
    let stream = AdvertisingReportReader.reports(from: reader, duration: nil, pollMilliseconds: 20)
    {
      stopped.withLock { $0 = true }
    }
    send(writer, AdvertisingReportTests.twoReports)
    send(writer, [0x04, 0x0E, 0x04, 0x01, 0x0B, 0x20, 0x00])  // Command Complete, LE Set Scan Parameters
    send(writer, [0x04, 0x3E, 0x03, 0x02, 0x01, 0x00])  // one report announced, none present
    send(writer, [0x04, 0x3E, 12, 0x02, 0x01, 0x00, 0x00, 1, 2, 3, 4, 5, 6, 0, 0xC4])
    close(writer)

    var addresses: [String] = []
    var ending: (any Error)?
    do {
      for try await report in stream { addresses.append(report.address.description) }
    } catch {
      ending = error
    }
    #expect(addresses == ["C0:11:22:33:44:55", "11:22:33:44:55:66", "06:05:04:03:02:01"])
    #expect(ending as? BluetoothError == .system(.scan, errno: ENODEV))
    #expect(stopped.withLock { $0 })
  }

  @Test func endsByItselfAfterItsDuration() async throws {
    let (reader, writer) = try pair()
    defer {
      close(reader)
      close(writer)
    }
    let clock = ContinuousClock()
    let started = clock.now
    var count = 0
    for try await _ in AdvertisingReportReader.reports(
      from: reader, duration: .milliseconds(150), pollMilliseconds: 20, stop: {})
    {
      count += 1
    }
    #expect(count == 0)
    #expect(clock.now - started >= .milliseconds(150))
  }
}
