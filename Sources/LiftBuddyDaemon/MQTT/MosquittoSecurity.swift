import CMosquitto

/// What a libmosquitto handle sends to be let in: the user name and
/// password, and TLS, read at start (`MQTTConfiguration.make`), so a rack's
/// publisher and its coach's subscriber get into the same broker the same
/// way.
enum MosquittoSecurity {
  /// Where both come from, read at start (`MQTTConfiguration.make`).
  struct Settings: Sendable {
    var credentials: (username: String, password: String?)?
    var tls: MQTTTLS?
  }

  static func apply(_ settings: Settings, to handle: OpaquePointer) throws(MosquittoError) {
    if let (username, password) = settings.credentials {
      try check(mosquitto_username_pw_set(handle, username, password))
    }
    if let tls = settings.tls {
      // The broker's certificate checked against `caFile` (or the system's
      // CAs) and its host name; an encrypted key is refused rather than
      // asked for on a terminal the daemon does not have.
      try check(
        mosquitto_tls_set(
          handle, tls.caFile, tls.caFile == nil ? MQTTTLS.systemCADirectory : nil, tls.certFile,
          tls.keyFile, { _, _, _, _ in 0 }))
      // 1: SSL_VERIFY_PEER.
      try check(mosquitto_tls_opts_set(handle, 1, nil, nil))
    }
  }

  private static func check(_ rc: Int32) throws(MosquittoError) {
    if rc != MOSQ_ERR_SUCCESS.rawValue { throw MosquittoError(code: rc) }
  }
}
