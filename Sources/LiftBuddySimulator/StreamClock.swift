/// Maps sample-clock times onto the clock a reader will see for the stream.
/// For timestamped transports the two are the same (truth is on the source
/// clock at zero latency); a raw capture is timed by counting `s:` lines at
/// the nominal rate, so its clock runs with the crystal's drift and the
/// truth must follow it to be comparable.
struct StreamClock {
  /// Sample-clock times of the `s:` lines, or nil for the identity.
  let sonarTimes: [Double]?
  let nominalRateHz: Double

  func map(_ t: Double) -> Double {
    guard let times = sonarTimes, times.count >= 2 else { return t }
    var lo = 0
    var hi = times.count - 1
    if t <= times[0] {
      hi = 1
    } else if t >= times[hi] {
      lo = hi - 1
    } else {
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if times[mid] <= t { lo = mid } else { hi = mid }
      }
    }
    let fraction = (t - times[lo]) / (times[hi] - times[lo])
    return (Double(lo) + fraction * Double(hi - lo)) / nominalRateHz
  }
}
