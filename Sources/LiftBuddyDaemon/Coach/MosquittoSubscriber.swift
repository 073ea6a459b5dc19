import CMosquitto

#if canImport(Glibc)
  import Glibc
#endif

/// One libmosquitto client handle that subscribes: the C calls a coach
/// needs, and its callbacks turned into Swift closures. (`MosquittoClient`
/// is the publishing side's; the two share libmosquitto, not code paths.)
///
/// libmosquitto's own thread (`startLoop`) reads messages, pings and
/// reconnects with backoff after a failure; the callbacks run on it. The
/// session is clean (the broker keeps nothing for a coach who is away: the
/// racks' retained `status` tells a returning coach where each rack is),
/// so the subscriptions are made again on every connection.
///
/// Not `Sendable`: the owner confines it to one thread (`CoachFeed`'s
/// queue); libmosquitto's thread is the only other one that touches it.
final class MosquittoSubscriber {
  /// Called on libmosquitto's thread.
  struct Callbacks: Sendable {
    /// The broker's CONNACK: 0 is accepted, anything else a refusal.
    var connected: @Sendable (Int32) -> Void
    /// 0 after our own `disconnect`, else why the link broke.
    var disconnected: @Sendable (Int32) -> Void
    /// A message: its topic and its payload's bytes.
    var message: @Sendable (String, [UInt8]) -> Void
  }

  private final class CallbackBox: Sendable {
    let callbacks: Callbacks
    init(_ callbacks: Callbacks) { self.callbacks = callbacks }
  }

  private let handle: OpaquePointer
  private let box: Unmanaged<CallbackBox>
  private var loopRunning = false

  /// `mosquitto_lib_init` once per process before any client (libmosquitto
  /// counts its callers, so the publisher's own call does no harm).
  private static let library: Int32 = mosquitto_lib_init()

  init(clientID: String, callbacks: Callbacks) throws(MosquittoError) {
    _ = Self.library
    let box = Unmanaged.passRetained(CallbackBox(callbacks))
    guard let handle = mosquitto_new(clientID, true, box.toOpaque()) else {
      let error = MosquittoError(code: Int32(MOSQ_ERR_ERRNO.rawValue))
      box.release()
      throw error
    }
    self.handle = handle
    self.box = box
    mosquitto_connect_callback_set(handle) { _, data, rc in
      guard let data else { return }
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.connected(rc)
    }
    mosquitto_disconnect_callback_set(handle) { _, data, rc in
      guard let data else { return }
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.disconnected(rc)
    }
    mosquitto_message_callback_set(handle) { mosq, data, message in
      guard let data, let message, let topic = message.pointee.topic else { return }
      // Acknowledge at once what the broker sent. A stock Mosquitto keeps
      // Nagle's algorithm on (`set_tcp_nodelay false`), so a message it
      // writes just after another (a rack's `rep` right after its `set`)
      // waits for our ACK of the first, which Linux delays up to 40 ms when
      // we have nothing to send back. TCP_QUICKACK is not sticky: set again
      // after every read.
      if let mosq, case let fd = mosquitto_socket(mosq), fd >= 0 {
        var on: Int32 = 1
        _ = setsockopt(
          fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
      }
      let length = Int(message.pointee.payloadlen)
      let payload =
        length > 0 && message.pointee.payload != nil
        ? Array(UnsafeRawBufferPointer(start: message.pointee.payload, count: length)) : []
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.message(
        String(cString: topic), payload)
    }
    // A rep is a few hundred bytes the coach wants now, not after Nagle's wait.
    _ = mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
  }

  deinit {
    if loopRunning { _ = mosquitto_loop_stop(handle, true) }
    mosquitto_destroy(handle)
    box.release()
  }

  /// The user name, password and TLS sent to be let in (`MosquittoSecurity`).
  func secure(_ settings: MosquittoSecurity.Settings) throws(MosquittoError) {
    try MosquittoSecurity.apply(settings, to: handle)
  }

  func setReconnectDelay(minimum: UInt32, maximum: UInt32) {
    _ = mosquitto_reconnect_delay_set(handle, minimum, maximum, true)
  }

  /// Starts connecting (the name is resolved here, on the calling thread).
  func connectAsync(host: String, port: Int, keepAliveS: Int32) -> MosquittoError? {
    let rc = mosquitto_connect_async(handle, host, Int32(port), keepAliveS)
    return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoError(code: rc)
  }

  func startLoop() -> MosquittoError? {
    let rc = mosquitto_loop_start(handle)
    guard rc == MOSQ_ERR_SUCCESS.rawValue else { return MosquittoError(code: rc) }
    loopRunning = true
    return nil
  }

  /// Subscribes to every filter at once, QoS 1 (what the racks publish with
  /// QoS 1, their lift reports, reaches the coach acknowledged too).
  func subscribe(_ filters: [String]) -> MosquittoError? {
    let pointers = filters.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    let rc = mosquitto_subscribe_multiple(handle, nil, Int32(filters.count), pointers, 1, 0, nil)
    return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoError(code: rc)
  }

  /// Disconnects and stops libmosquitto's thread; `force` cancels the
  /// thread, which may be asleep in a reconnection delay.
  func stop(force: Bool) {
    if !force { _ = mosquitto_disconnect(handle) }
    if loopRunning {
      _ = mosquitto_loop_stop(handle, force)
      loopRunning = false
    }
  }
}
