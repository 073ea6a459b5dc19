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
/// Each time given out is revised later from the arrivals that follow
/// (`ClockHindsight`), for the measurements that can wait for it.
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
  /// The period is measured over the arrivals of the last few seconds: at
  /// least 1 s of them averages out arrival jitter, at most 4 s follows a
  /// clip whose rate changes. A silence longer than `maxSilenceS` (the
  /// clip stopped, or lost samples) starts the measurement afresh.
  static let minSamplesForPeriod = 12
  static let minSpanForPeriod = 1.0
  static let maxSpanForPeriod = 4.0
  static let maxSilenceS = 0.6
  /// When every group over this long arrived later than the clock predicted,
  /// the clock is behind (it started with a wrong rate, or the latency
  /// grew): it catches up by half that least lateness...
  static let catchUpWindowS = 1.0
  /// ...spread out, at most this share of a period per sample, so that the
  /// correction never shows as a velocity spike.
  static let catchUpShare = 0.1
  /// Sample rates outside the sonar's plausible 5–100 Hz are measurement
  /// noise, not a clock: the period estimate is clamped to that range.
  static let periodRange = (1.0 / 100)...(1.0 / 5)
  /// How fast the device-clock offset may creep up: crystals on Arduino
  /// boards drift well under 1 %, so a 1 % creep always catches up.
  static let deviceClockCreep = 0.01
  /// A device clock that jumps back, or forward by more than this, was reset.
  static let deviceClockMaxJump = 10.0

  private(set) var period: Double
  /// The times given out, revised with the arrivals after them (samples
  /// timed by the device's own clock need none).
  private(set) var hindsight = ClockHindsight()
  private var last: Double? = nil  // time given to the previous sample
  private var lastArrival: Double = -.infinity

  // The group being collected: arrivals within groupFraction of each other.
  private var group: [(arrival: Double, cm: Double)] = []

  // Period measurement: (arrival of a group's last line, samples so far).
  private var history: [(arrival: Double, count: Int)] = []
  private var historyStart = 0
  private var samplesSeen = 0

  // Catching up: the least lateness in the current window, and what is
  // still to be added to the clock.
  private var windowStart: Double? = nil
  private var windowMinLate = Double.infinity
  private var catchUp = 0.0

  // Device-clock mode.
  private var deviceOffset: Double? = nil
  private var lastDeviceSeconds: Double = 0

  init(nominalRateHz: Double) {
    let p = 1 / max(nominalRateHz, 1)
    period = min(max(p, Self.periodRange.lowerBound), Self.periodRange.upperBound)
    group.reserveCapacity(64)
  }

  mutating func setNominalRate(_ hz: Double) {
    guard hz.isFinite, hz > 0, history.isEmpty else { return }
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
      } else {
        let step = min(catchUp, Self.catchUpShare * period * Double(k))
        catchUp -= step
        end = min(arrival, envelope + step)
        spacing = max((end - previous) / Double(k), period * 0.05)
        noteLateness(arrival - end, at: arrival)
      }
      if end - Double(k - 1) * spacing <= previous {
        spacing = (end - previous) / Double(k)
      }
    } else {
      end = arrival
      spacing = period
    }
    for (i, sample) in group.enumerated() {
      let t = end - Double(k - 1 - i) * spacing
      emit(TimedHeight(t: t, cm: sample.cm))
      hindsight.note(t: t, arrival: sample.arrival, period: period)
    }
    last = end
    measurePeriod(arrival: arrival, count: k)
    group.removeAll(keepingCapacity: true)
  }

  /// The time of the latest sample given out, or of the one held back.
  var latestTime: Double? { group.isEmpty ? last : max(last ?? -.infinity, lastArrival) }

  private mutating func noteLateness(_ late: Double, at arrival: Double) {
    windowMinLate = min(windowMinLate, late)
    guard let start = windowStart else {
      windowStart = arrival
      return
    }
    if arrival - start >= Self.catchUpWindowS {
      if windowMinLate > 0, windowMinLate.isFinite { catchUp = windowMinLate / 2 }
      windowStart = arrival
      windowMinLate = .infinity
    }
  }

  private mutating func measurePeriod(arrival: Double, count: Int) {
    if let newest = history.last, arrival - newest.arrival > Self.maxSilenceS {
      history.removeAll(keepingCapacity: true)
      historyStart = 0
    }
    samplesSeen += count
    history.append((arrival, samplesSeen))
    while arrival - history[historyStart].arrival > Self.maxSpanForPeriod { historyStart += 1 }
    if historyStart > 256 {
      history.removeFirst(historyStart)
      historyStart = 0
    }
    let oldest = history[historyStart]
    let span = arrival - oldest.arrival
    let samples = samplesSeen - oldest.count
    if samples >= Self.minSamplesForPeriod, span >= Self.minSpanForPeriod {
      let measured = span / Double(samples)
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
