import CMosquitto
import Foundation

/// One libmosquitto client handle: the C calls, and its callbacks turned
/// into Swift closures. A rack's publisher and the coach's subscriber both
/// use it.
///
/// libmosquitto's own thread (`startLoop`) does the network: it connects,
/// writes what `publish` queued, reads acknowledgements, pings, and
/// reconnects with backoff after a failure. `publish` only queues, so the
/// thread that calls it never waits on the broker. The callbacks run on
/// libmosquitto's thread.
///
/// Not `Sendable`: the owner confines it to one thread (`MQTTPublisher`
/// lives on the sink's `SerialIOQueue`), and libmosquitto's thread is the
/// only other one that touches the handle.
final class MosquittoClient {
  /// Called on libmosquitto's thread.
  struct Callbacks: Sendable {
    /// The broker's CONNACK: 0 is accepted, anything else a refusal.
    var connected: @Sendable (Int32) -> Void
    /// 0 after our own `disconnect`, else the reason the link broke (or a
    /// connection attempt failed).
    /// The code, and `errno` as the callback found it (read first, on
    /// libmosquitto's thread: the reason behind `MOSQ_ERR_ERRNO`).
    var disconnected: @Sendable (_ rc: Int32, _ systemError: Int32) -> Void
    /// A message left (QoS 0) or was acknowledged (QoS 1).
    var published: @Sendable (Int32) -> Void
    /// A message on a subscribed topic: its topic and payload, the payload
    /// cut at `maxMessageBytes` + 1 (enough to tell it is too long).
    var message: @Sendable (String, [UInt8]) -> Void = { _, _ in }
    /// libmosquitto's own error lines (TLS and OpenSSL's reasons among them),
    /// which come just before the `disconnected` they explain.
    var libraryError: @Sendable (String) -> Void = { _ in }
  }

  /// Payload bytes of a received message passed on, at most, plus one.
  let maxMessageBytes: Int

  /// Holds the callbacks for libmosquitto's `void *` user data.
  private final class CallbackBox: Sendable {
    let callbacks: Callbacks
    let maxMessageBytes: Int
    init(_ callbacks: Callbacks, maxMessageBytes: Int) {
      self.callbacks = callbacks
      self.maxMessageBytes = maxMessageBytes
    }
  }

  private let handle: OpaquePointer
  private let box: Unmanaged<CallbackBox>
  private var loopRunning = false

  /// `mosquitto_lib_init` must run once per process before any client.
  private static let library: Int32 = mosquitto_lib_init()

  init(clientID: String, cleanSession: Bool, callbacks: Callbacks, maxMessageBytes: Int = 4096)
    throws(MosquittoError)
  {
    _ = Self.library
    self.maxMessageBytes = maxMessageBytes
    let box = Unmanaged.passRetained(
      CallbackBox(callbacks, maxMessageBytes: maxMessageBytes))
    guard let handle = mosquitto_new(clientID, cleanSession, box.toOpaque()) else {
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
      let systemError = errno
      guard let data else { return }
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.disconnected(
        rc, systemError)
    }
    mosquitto_publish_callback_set(handle) { _, data, mid in
      guard let data else { return }
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.published(mid)
    }
    mosquitto_message_callback_set(handle) { client, data, message in
      guard let data, let message, let topic = message.pointee.topic else { return }
      // Acknowledge at once what the broker sent. A stock Mosquitto keeps
      // Nagle's algorithm on (`set_tcp_nodelay false`), so a message it
      // writes just after another (a rack's `rep` right after its `set`)
      // waits for our ACK of the first, which Linux delays up to 40 ms when
      // we have nothing to send back. TCP_QUICKACK is not sticky: set again
      // after every read.
      if let client, case let fd = mosquitto_socket(client), fd >= 0 {
        var on: Int32 = 1
        _ = setsockopt(
          fd, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
      }
      let box = Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue()
      let length = min(Int(message.pointee.payloadlen), box.maxMessageBytes + 1)
      let payload =
        message.pointee.payload.map {
          Array(UnsafeRawBufferPointer(start: $0, count: max(0, length)))
        } ?? []
      box.callbacks.message(String(cString: topic), payload)
    }
    mosquitto_log_callback_set(handle) { _, data, level, text in
      guard let data, let text, level == MOSQ_LOG_ERR else { return }
      Unmanaged<CallbackBox>.fromOpaque(data).takeUnretainedValue().callbacks.libraryError(
        String(cString: text))
    }
    // A rep is a few hundred bytes the coach wants now, not after Nagle's wait.
    _ = mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1)
  }

  deinit {
    if loopRunning { _ = mosquitto_loop_stop(handle, true) }
    mosquitto_destroy(handle)
    box.release()
  }

  /// The message the broker publishes for us if we vanish without a DISCONNECT.
  func setWill(topic: String, payload: [UInt8], qos: Int32, retain: Bool) throws(MosquittoError) {
    let rc = payload.withUnsafeBytes {
      mosquitto_will_set(handle, topic, Int32($0.count), $0.baseAddress, qos, retain)
    }
    try check(rc)
  }

  /// The user name, password and TLS sent to be let in (`MosquittoSecurity`).
  func secure(_ settings: MosquittoSecurity.Settings) throws(MosquittoError) {
    try MosquittoSecurity.apply(settings, to: handle)
  }

  /// Reconnection delays, in seconds: with `exponential`, libmosquitto
  /// waits minimum × (n + 1)² after the n-th failure, up to `maximum`.
  func setReconnectDelay(minimum: UInt32, maximum: UInt32, exponential: Bool) {
    _ = mosquitto_reconnect_delay_set(handle, minimum, maximum, exponential)
  }

  /// Starts connecting (the name is resolved here, on the calling thread);
  /// the loop thread carries on, and retries, from there. An error is the
  /// first attempt's: the loop thread still retries after it.
  func connectAsync(host: String, port: Int, keepAliveS: Int32) -> MosquittoError? {
    let rc = mosquitto_connect_async(handle, host, Int32(port), keepAliveS)
    return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoError(code: rc)
  }

  /// Subscribes (queued like a publish; the broker's SUBACK is not awaited).
  func subscribe(topic: String, qos: Int32) -> MosquittoError? {
    subscribe([topic], qos: qos)
  }

  /// Subscribes to every filter in one SUBSCRIBE.
  func subscribe(_ filters: [String], qos: Int32) -> MosquittoError? {
    let pointers = filters.map { strdup($0) }
    defer { for pointer in pointers { free(pointer) } }
    let rc = mosquitto_subscribe_multiple(
      handle, nil, Int32(filters.count), pointers, qos, 0, nil)
    return rc == MOSQ_ERR_SUCCESS.rawValue ? nil : MosquittoError(code: rc)
  }

  /// Joins libmosquitto's thread after an error it does not come back
  /// from (`MosquittoError.endsLibraryThread`), so that `connectAsync` and
  /// `startLoop` can start over.
  func joinLoop() {
    guard loopRunning else { return }
    _ = mosquitto_loop_stop(handle, true)
    loopRunning = false
  }

  func startLoop() throws(MosquittoError) {
    try check(mosquitto_loop_start(handle))
    loopRunning = true
  }

  /// Queues a message; returns its message id (for the `published` callback).
  func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) -> Result<
    Int32, MosquittoError
  > {
    var mid: Int32 = 0
    let rc = payload.withUnsafeBytes {
      mosquitto_publish(handle, &mid, topic, Int32($0.count), $0.baseAddress, qos, retain)
    }
    return rc == MOSQ_ERR_SUCCESS.rawValue ? .success(mid) : .failure(MosquittoError(code: rc))
  }

  /// Sends DISCONNECT (so the broker drops the will) and stops the loop
  /// thread once it has written what was queued. `force` cancels the thread
  /// instead, for when it may be asleep in a reconnection delay.
  func stop(force: Bool) {
    if !force { _ = mosquitto_disconnect(handle) }
    if loopRunning {
      _ = mosquitto_loop_stop(handle, force)
      loopRunning = false
    }
  }

  private func check(_ rc: Int32) throws(MosquittoError) {
    if rc != MOSQ_ERR_SUCCESS.rawValue { throw MosquittoError(code: rc) }
  }
}
