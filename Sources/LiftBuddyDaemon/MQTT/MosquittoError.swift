import CMosquitto

#if canImport(Glibc)
  import Glibc
#endif

/// A libmosquitto result other than success, told in words a gym's admin
/// can act on: the system error behind `MOSQ_ERR_ERRNO` (captured at once,
/// before anything else can change `errno`), the broker's refusal reason.
public struct MosquittoError: Error, Sendable, Equatable, CustomStringConvertible {
  public let code: Int32
  /// `errno` when `code` is `MOSQ_ERR_ERRNO`; the CONNACK code for a refusal.
  public let systemError: Int32

  /// Reads `errno` now, so call it straight after the failing call.
  init(code: Int32) {
    self.code = code
    systemError = code == Int32(MOSQ_ERR_ERRNO.rawValue) ? errno : 0
  }

  /// A CONNACK refusal (the `rc` of the connect callback) as an error.
  static func refusal(_ rc: Int32) -> MosquittoError {
    MosquittoError(code: Int32(MOSQ_ERR_CONN_REFUSED.rawValue), systemError: rc)
  }

  /// With an `errno` read earlier, on the thread that saw the failure.
  init(code: Int32, systemError: Int32) {
    self.code = code
    self.systemError = systemError
  }

  /// libmosquitto's thread (`mosquitto_loop_forever`) returns after these
  /// instead of reconnecting: a broker that spoke something else, a TLS
  /// failure, a name that stopped resolving. Without a restart the sink
  /// would never connect again.
  public var endsLibraryThread: Bool {
    [
      MOSQ_ERR_NOMEM, MOSQ_ERR_PROTOCOL, MOSQ_ERR_INVAL, MOSQ_ERR_NOT_FOUND, MOSQ_ERR_TLS,
      MOSQ_ERR_PAYLOAD_SIZE, MOSQ_ERR_NOT_SUPPORTED, MOSQ_ERR_AUTH, MOSQ_ERR_ACL_DENIED,
      MOSQ_ERR_UNKNOWN, MOSQ_ERR_EAI, MOSQ_ERR_PROXY,
    ].contains { Int32($0.rawValue) == code } || systemError == EPROTO
  }

  /// How a connection ends that something other than a broker answered:
  /// closed, reset, or bytes that are not MQTT. libmosquitto (2.0,
  /// `packet__read`) takes an end of file in the middle of a packet's body
  /// for `MOSQ_ERR_ERRNO` with whatever `errno` was before, often 0: an
  /// HTTP answer ("HTTP/1…" reads as a packet of 84 bytes) followed by the
  /// server's close ends that way when no reset comes first.
  public var isClosedBeforeAnswer: Bool {
    code == Int32(MOSQ_ERR_CONN_LOST.rawValue) || code == Int32(MOSQ_ERR_PROTOCOL.rawValue)
      || (code == Int32(MOSQ_ERR_ERRNO.rawValue)
        && [0, ECONNRESET, EPIPE].contains(systemError))
  }

  public var isNoConnection: Bool { code == Int32(MOSQ_ERR_NO_CONN.rawValue) }

  public var description: String {
    switch code {
    case Int32(MOSQ_ERR_ERRNO.rawValue):
      systemError == 0
        ? "the connection ended (libmosquitto gave no reason)"
        : String(cString: strerror(systemError))
    case Int32(MOSQ_ERR_EAI.rawValue): "the host name does not resolve"
    case Int32(MOSQ_ERR_CONN_REFUSED.rawValue):
      "the broker refused the connection: \(String(cString: mosquitto_connack_string(systemError)))"
    case Int32(MOSQ_ERR_KEEPALIVE.rawValue): "the broker stopped answering"
    case Int32(MOSQ_ERR_CONN_LOST.rawValue): "the connection was lost"
    case Int32(MOSQ_ERR_PROTOCOL.rawValue): "the other end does not speak MQTT"
    case Int32(MOSQ_ERR_TLS.rawValue): "the TLS connection failed"
    default: String(cString: mosquitto_strerror(code))
    }
  }
}
