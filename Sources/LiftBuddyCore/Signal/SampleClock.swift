/// Reconstructs when each sonar sample was taken from when its line arrived.
///
/// Arrival times are the sample times plus a transport delay that is never
/// negative and, over BLE, very uneven: lines are held back and delivered in
/// connection events (several lines with one arrival time), and a stalled
/// link delivers hundreds of milliseconds of samples in one burst.
/// Differentiating raw arrival times turns that into huge false velocities.
///
/// The sonar itself ticks at a steady rate, so the clock rides the *lower
/// envelope* of the arrivals with the measured period: a sample is placed one
/// period after the previous one unless it arrived earlier than that (then the
/// estimate was late and snaps to the arrival). Lines that arrive together
/// form a group that is spread back from its last arrival. When a group comes
/// too late to be explained by buffering (fewer samples than the silence
/// could hold), samples were lost: the clock re-anchors to the arrival,
/// leaving a gap in the sample times.
///
/// When the firmware adds its own millisecond clock (`s:<cm>:<ms>`), that
/// clock gives the spacing and only its offset to the source clock is
/// tracked, again as a lower envelope.
struct SampleClock: Sendable {
  /// Lines closer together than this share a delivery (a BLE connection
  /// event or one `read()`): a fraction of the sample period, so that serial
  /// jitter of a few milliseconds never merges two samples.
  static let groupFraction = 0.25
  /// An arrival later than the lower envelope by this many periods cannot be
  /// buffering: samples were lost (a dropout). 2.5 periods tolerates a BLE
  /// connection event that was skipped once or twice.
  static let lostSamplePeriods = 2.5
  /// Fewest samples and shortest span before the measured period replaces
  /// the nominal one: 1 s of samples averages out arrival jitter.
  static let minSamplesForPeriod = 20
  static let minSpanForPeriod = 1.0
  /// Sample rates outside the sonar's plausible 5–100 Hz are measurement
  /// noise, not a clock: the period estimate is clamped to that range.
  static let periodRange = (1.0 / 100)...(1.0 / 5)
  /// How fast the device-clock offset may creep up: crystals on Arduino
  /// boards drift well under 1 %, so a 1 % creep always catches up.
  static let deviceClockCreep = 0.01
  /// A device clock that jumps back, or forward by more than this, was reset.
  static let deviceClockMaxJump = 10.0

  private(set) var period: Double
  private var last: Double? = nil  // time given to the previous sample
  private var lastArrival: Double = -.infinity

  // The group being collected: arrivals within groupFraction of each other.
  private var group: [(arrival: Double, cm: Double)] = []

  // Period measurement since the last re-anchor.
  private var anchorArrival: Double? = nil
  private var samplesSinceAnchor = 0

  // Device-clock mode.
  private var deviceOffset: Double? = nil
  private var lastDeviceSeconds: Double = 0

  init(nominalRateHz: Double) {
    let p = 1 / max(nominalRateHz, 1)
    period = min(max(p, Self.periodRange.lowerBound), Self.periodRange.upperBound)
    group.reserveCapacity(64)
  }

  mutating func setNominalRate(_ hz: Double) {
    guard hz.isFinite, hz > 0, anchorArrival == nil else { return }
    period = min(max(1 / hz, Self.periodRange.lowerBound), Self.periodRange.upperBound)
  }

  /// A sample arrived. Completed samples (possibly none, possibly several)
  /// are passed to `emit` in order.
  mutating func push(
    arrival t: Double, cm: Double, deviceMillis: UInt64?, emit: (TimedHeight) -> Void
  ) {
    if let ms = deviceMillis {
      flush(emit: emit)
      emit(TimedHeight(t: deviceTime(arrival: t, ms: ms), cm: cm))
      return
    }
    if let first = group.first, t - first.arrival > Self.groupFraction * period {
      flush(emit: emit)
    }
    group.append((t, cm))
    lastArrival = t
  }

  /// Releases the group held back (end of stream, or time has passed).
  mutating func flush(emit: (TimedHeight) -> Void) {
    guard let lastInGroup = group.last else { return }
    let k = group.count
    let arrival = lastInGroup.arrival
    var end: Double
    var spacing: Double
    if let previous = last {
      let envelope = previous + Double(k) * period
      if arrival - envelope > Self.lostSamplePeriods * period {
        // Too late to be buffering: samples were lost before this group
        // (the analyzer counts the gap from the spacing it sees).
        end = arrival
        spacing = period
        restartPeriodMeasurement(at: arrival)
      } else {
        end = min(arrival, envelope)
        spacing = max((end - previous) / Double(k), period * 0.05)
      }
      if end - Double(k - 1) * spacing <= previous {
        spacing = (end - previous) / Double(k)
      }
    } else {
      end = arrival
      spacing = period
      restartPeriodMeasurement(at: arrival)
    }
    for (i, sample) in group.enumerated() {
      emit(TimedHeight(t: end - Double(k - 1 - i) * spacing, cm: sample.cm))
    }
    last = end
    measurePeriod(arrival: arrival, count: k)
    group.removeAll(keepingCapacity: true)
  }

  /// The time of the latest sample given out, or of the one held back.
  var latestTime: Double? { group.isEmpty ? last : max(last ?? -.infinity, lastArrival) }

  private mutating func restartPeriodMeasurement(at arrival: Double) {
    anchorArrival = arrival
    samplesSinceAnchor = 0
  }

  private mutating func measurePeriod(arrival: Double, count: Int) {
    guard let anchor = anchorArrival else { return }
    samplesSinceAnchor += count
    let span = arrival - anchor
    // The anchor's own group counts as sample zero, so n samples after it
    // span n periods.
    if samplesSinceAnchor - count >= Self.minSamplesForPeriod, span >= Self.minSpanForPeriod {
      let measured = span / Double(samplesSinceAnchor - count)
      period = min(max(measured, Self.periodRange.lowerBound), Self.periodRange.upperBound)
    }
  }

  private mutating func deviceTime(arrival t: Double, ms: UInt64) -> Double {
    let d = Double(ms) / 1000
    if let offset = deviceOffset {
      let step = d - lastDeviceSeconds
      if step < 0 || step > Self.deviceClockMaxJump {
        deviceOffset = t - d
      } else {
        deviceOffset = min(t - d, offset + step * Self.deviceClockCreep)
      }
    } else {
      deviceOffset = t - d
    }
    lastDeviceSeconds = d
    let tau = d + deviceOffset!
    last = tau
    return tau
  }
}
