/// The notification side of a GATT link once it is set up
/// (`GattClient.receiveNotifications(from:)`): the values that came during
/// the setup, and the meaning of each PDU the peer sends after, for whatever
/// reads the link (the daemon reads it on an event loop, one wake-up per
/// notification, rather than on a thread of its own). The decoding and the
/// answers are the ones the client's own transactions use, so the peer's
/// unsolicited traffic is treated alike before and after the setup.
public struct GattNotificationReceiver: Sendable {
  /// What one PDU from the peer calls for.
  public struct Received: Sendable, Equatable {
    /// The value, when the PDU notifies or indicates the subscribed characteristic.
    public var value: [UInt8]?
    /// A PDU to send back at once, when the peer waits for one: an
    /// indication's confirmation (Vol 3 Part F §3.4.7.3), or a request to our
    /// empty ATT server turned down, so that the peer's transaction does not
    /// time out and drop the link (§3.3.2).
    public var reply: [UInt8]?
  }

  /// The link. It owns its descriptor until a reader takes it over
  /// (`AttBearer.releaseDescriptor()`).
  public let bearer: AttBearer
  /// The characteristic value whose notifications are wanted.
  public let valueHandle: UInt16
  /// Its values that arrived during the setup's transactions, in order (a
  /// server may notify at any time, §3.3.2).
  public let early: [[UInt8]]

  init(bearer: AttBearer, valueHandle: UInt16, early: [[UInt8]]) {
    self.bearer = bearer
    self.valueHandle = valueHandle
    self.early = early
  }

  /// Decodes one PDU as received (one SOCK_SEQPACKET packet). Throws
  /// `.malformed` for bytes that are not ATT, which ends the link: a peer
  /// that sends them cannot be followed.
  public func receive(_ pdu: [UInt8]) throws(BluetoothError) -> Received {
    let answer = GattClient.answer(try GattClient.decode(pdu))
    return Received(
      value: answer.value.flatMap { $0.handle == valueHandle ? $0.value : nil },
      reply: answer.reply?.encoded())
  }
}
