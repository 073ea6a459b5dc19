import BlueZ
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Who closes the ATT socket: the bearer, until a reader takes the
/// descriptor over (the daemon's event loop channel). Seen from the far end
/// of a socketpair: a closed end reads as EOF there, an open one as nothing
/// yet.
@Suite struct AttBearerTests {
  static func pair() throws -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    try #require(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &fds) == 0)
    return (fds[0], fds[1])
  }

  /// What the far end reads now: 0 at EOF, -1 (EAGAIN) while the link is open.
  static func peek(_ fd: Int32) -> Int {
    var byte: UInt8 = 0
    return recv(fd, &byte, 1, Int32(MSG_DONTWAIT))
  }

  @Test func aBearerClosesItsDescriptorWhenReleased() throws {
    let (near, far) = try Self.pair()
    defer { close(far) }
    var bearer: AttBearer? = AttBearer(fileDescriptor: near)
    #expect(Self.peek(far) == -1)
    _ = bearer
    bearer = nil
    #expect(Self.peek(far) == 0)
  }

  @Test func aHandedOverDescriptorOutlivesTheBearer() throws {
    let (near, far) = try Self.pair()
    defer { close(far) }
    var bearer: AttBearer? = AttBearer(fileDescriptor: near)
    #expect(bearer?.releaseDescriptor() == near)
    #expect(bearer?.releaseDescriptor() == nil)
    #expect(throws: BluetoothError.bearerBusy) { try bearer?.send([0x1E]) }
    #expect(throws: BluetoothError.bearerBusy) {
      _ = try bearer?.receive(timeoutMilliseconds: 0)
    }
    bearer = nil
    #expect(Self.peek(far) == -1)
    // The new owner closes it.
    #expect(close(near) == 0)
    #expect(Self.peek(far) == 0)
  }
}
