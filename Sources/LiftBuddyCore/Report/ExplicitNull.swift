extension KeyedEncodingContainer {
  /// The one way every JSON this project writes (reports, the socket's
  /// objects, the web view's history, MQTT's offline status) says
  /// "unknown": the key is present with `null`, never left out, so that a
  /// reader tells "unknown" from "not in this version" (contract:
  /// lift-report.schema.json lists optional fields as required and
  /// nullable). `encodeIfPresent`, which leaves the key out, is for
  /// fields that are genuinely absent (an `ack` to a command without
  /// classes).
  public mutating func encodeOrNull<T: Encodable>(_ value: T?, forKey key: Key) throws {
    if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
  }

  /// `null` for a field this object never knows (MQTT's offline status
  /// carries the `status` object's keys without their values).
  public mutating func encodeNull(forKey key: Key) throws { try encodeNil(forKey: key) }
}
