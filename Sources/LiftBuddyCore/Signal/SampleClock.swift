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
/// A clip that waits for each echo before its `delay()` samples slower
/// the further it reads: once the arrivals show it (`EchoTiming`), each
/// sample's share of the spacing is the period's fixed part plus its own
/// echo's round trip, not an even share.
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
  /// No sample's spacing is put below this share of the mean period,
  /// whatever the echo model says (a fixed part measured across a stall).
  static let minSampleShare = 0.05
  /// How fast the device-clock offset may creep up: crystals on Arduino
  /// boards drift well under 1 %, so a 1 % creep always catches up.
  static let deviceClockCreep = 0.01
  /// A device clock that jumps back, or forward by more than this, was reset.
  static let deviceClockMaxJump = 10.0

  /// The mean period of the last few seconds' samples.
  private(set) var period: Double
  /// Its part that does not grow with the distance read (all of it on a
  /// clip that keeps time, `echo.secondsPerCm` zero).
  private var fixedPeriod: Double
  private var echo = EchoTiming()
  /// The times given out, revised with the arrivals after them (samples
  /// timed by the device's own clock need none).
  private(set) var hindsight = ClockHindsight()
  private var last: Double? = nil  // time given to the previous sample
  private var lastArrival: Double = -.infinity
  // Where the window of arrivals for `echo` opened: a group's arrival,
  // and the samples and echo distances counted by then.
  private var window: (arrival: Double, samples: Int, echoCm: Double)? = nil

  // The group being collected: arrivals within groupFraction of each other.
  private var group: [(arrival: Double, cm: Double)] = []
  private var periods: [Double] = []

  // Period measurement: (arrival of a group's last line, samples so far,
  // their echo distances so far).
  private var history: [(arrival: Double, count: Int, echoCm: Double)] = []
  private var historyStart = 0
  private var samplesSeen = 0
  private var echoCmSeen = 0.0

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
    fixedPeriod = period
    group.reserveCapacity(64)
  }

  mutating func setNominalRate(_ hz: Double) {
    guard hz.isFinite, hz > 0, history.isEmpty else { return }
    period = min(max(1 / hz, Self.periodRange.lowerBound), Self.periodRange.upperBound)
    fixedPeriod = period
  }

  /// The spacing before a sample that read `cm`: even, or longer for a
  /// further echo on a clip that waits for it.
  private func period(before cm: Double) -> Double {
    guard echo.secondsPerCm > 0 else { return period }
    return max(
      fixedPeriod + echo.secondsPerCm * EchoTiming.echoCm(cm), Self.minSampleShare * period)
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
    // Each sample's spacing before it, and their sum.
    periods.removeAll(keepingCapacity: true)
    for sample in group { periods.append(period(before: sample.cm)) }
    let due = periods.reduce(0, +)
    var end: Double
    // The share of its due spacing each sample is given.
    var scale = 1.0
    var lost = false
    if let previous = last {
      let envelope = previous + due
      if arrival - envelope > Self.lostSamplePeriods * period {
        // Too late to be buffering: samples were lost before this group
        // (the analyzer counts the gap from the spacing it sees).
        end = arrival
        lost = true
      } else {
        let step = min(catchUp, Self.catchUpShare * period * Double(k))
        catchUp -= step
        end = min(arrival, envelope + step)
        scale = max((end - previous) / due, Self.minSampleShare * period * Double(k) / due)
        noteLateness(arrival - end, at: arrival)
      }
      if end - (due - periods[0]) * scale <= previous {
        scale = (end - previous) / due
      }
    } else {
      end = arrival
    }
    var after = due
    for (i, sample) in group.enumerated() {
      after -= periods[i]
      let t = end - after * scale
      emit(TimedHeight(t: t, cm: sample.cm))
      hindsight.note(t: t, arrival: sample.arrival, period: min(period, periods[i]))
      echoCmSeen += EchoTiming.echoCm(sample.cm)
    }
    last = end
    samplesSeen += k
    // The window first: a clip found to wait for its echoes has its fixed
    // period measured at once.
    noteWindow(arrival: arrival, lost: lost)
    measurePeriod(arrival: arrival)
    group.removeAll(keepingCapacity: true)
  }

  /// Seconds per centimetre read that the clip's period grows by (zero
  /// for a clip on a timer, or until the arrivals show otherwise).
  var echoSecondsPerCm: Double { echo.secondsPerCm }

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

  /// Closes the window of arrivals `EchoTiming` is given once it spans
  /// `EchoTiming.windowS`, from a group's arrival to a later one's; a lost
  /// sample or a silence opens it afresh. Called before the group joins
  /// `history`, whose newest arrival is then the group's before.
  private mutating func noteWindow(arrival: Double, lost: Bool) {
    let now = (arrival: arrival, samples: samplesSeen, echoCm: echoCmSeen)
    guard !lost, let start = window,
      arrival - (history.last?.arrival ?? start.arrival) <= Self.maxSilenceS
    else {
      window = now
      return
    }
    guard arrival - start.arrival >= EchoTiming.windowS else { return }
    echo.note(
      span: arrival - start.arrival, count: samplesSeen - start.samples,
      echoCm: echoCmSeen - start.echoCm)
    window = now
  }

  private mutating func measurePeriod(arrival: Double) {
    if let newest = history.last, arrival - newest.arrival > Self.maxSilenceS {
      history.removeAll(keepingCapacity: true)
      historyStart = 0
    }
    history.append((arrival, samplesSeen, echoCmSeen))
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
      let echoS = echo.secondsPerCm * (echoCmSeen - oldest.echoCm)
      fixedPeriod = max((span - echoS) / Double(samples), Self.minSampleShare * period)
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
