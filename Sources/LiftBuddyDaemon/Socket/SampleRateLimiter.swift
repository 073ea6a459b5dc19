import NIOCore

/// The ceiling on `sample` objects a subscriber gets: one per `interval` of
/// wall time, whatever the source sends. Used per socket client and for the
/// MQTT sink alike, so that a live plot gets the same stream either way.
struct SampleRateLimiter: Sendable {
  let interval: TimeAmount
  private var next = NIODeadline.uptimeNanoseconds(0)

  init(interval: TimeAmount) { self.interval = interval }

  /// Whether a sample arriving `now` goes out.
  mutating func admit(now: NIODeadline = .now()) -> Bool {
    guard now >= next else { return false }
    // Keep to the grid while samples come steadily; restart it after a gap,
    // so that a pause is not followed by a burst.
    next = now - next < interval ? next + interval : now + interval
    return true
  }
}
