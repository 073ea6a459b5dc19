import Foundation

/// Gives each printed line the time the host received it. Lines never
/// change order; only their receive times differ between transports.
struct TransportModel {
  /// USB-serial adapters deliver a line a few milliseconds after it is printed.
  static let serialLatencyS: ClosedRange<Double> = 0.001...0.004
  static let serialJitterS: ClosedRange<Double> = 0...0.0005
  /// BLE connection intervals are multiples of 1.25 ms, from 7.5 ms to 50 ms here.
  static let bleIntervalUnits: ClosedRange<Int> = 6...40
  static let bleUnitS = 0.00125
  /// Radio interference or a busy host: nothing arrives, then all at once.
  static let bleStallS: ClosedRange<Double> = 0.1...0.5
  /// Host scheduling jitter on each connection event's delivery.
  static let bleEventJitterS: ClosedRange<Double> = 0...0.001
  /// Lines of one event reach the host a few microseconds apart.
  static let bleLineSpacingS = 0.000_02

  /// Mean time between BLE stalls: interference is worse in a busier gym.
  static func meanTimeBetweenStalls(_ noise: NoiseLevel) -> Double {
    switch noise {
    case .clean: 30
    case .typical: 15
    case .dirty: 6
    }
  }

  /// Receive times for `lines`, or nil for a raw capture (no timestamps).
  static func receiveTimes(
    for lines: [EmittedLine], transport: Transport, noise: NoiseLevel, durationS: Double,
    rng: inout SeededRandom, log: inout FaultLog
  ) -> [Double]? {
    switch transport {
    case .raw: return nil
    case .serial: return serial(lines, rng: &rng)
    case .ble: return ble(lines, noise: noise, durationS: durationS, rng: &rng, log: &log)
    }
  }

  private static func serial(_ lines: [EmittedLine], rng: inout SeededRandom) -> [Double] {
    let latency = rng.uniform(serialLatencyS)
    var last = 0.0
    return lines.map { line in
      last = max(last, line.printTime + latency + rng.uniform(serialJitterS))
      return last
    }
  }

  private static func ble(
    _ lines: [EmittedLine], noise: NoiseLevel, durationS: Double, rng: inout SeededRandom,
    log: inout FaultLog
  ) -> [Double] {
    let interval = Double(rng.integer(bleIntervalUnits)) * bleUnitS
    let firstEvent = rng.uniform(0...interval)
    var stalls: [ClosedRange<Double>] = []
    var next = -meanTimeBetweenStalls(noise) * Foundation.log(max(rng.unit(), 1e-12))
    while next < durationS {
      let length = rng.uniform(bleStallS)
      stalls.append(next...(next + length))
      next += length - meanTimeBetweenStalls(noise) * Foundation.log(max(rng.unit(), 1e-12))
    }
    log.bleStalls = stalls.count

    var times: [Double] = []
    times.reserveCapacity(lines.count)
    var currentEvent = -1
    var eventJitter = 0.0
    var inEvent = 0
    var stallIndex = 0
    for line in lines {
      // The radio takes a line at the first connection event after it is printed.
      let ready = max(line.printTime + 0.001, 0)
      var event = Int(((ready - firstEvent) / interval).rounded(.up))
      event = max(event, currentEvent)
      let eventTime = firstEvent + Double(event) * interval
      while stallIndex < stalls.count, stalls[stallIndex].upperBound < eventTime { stallIndex += 1 }
      if stallIndex < stalls.count, stalls[stallIndex].contains(eventTime) {
        event = Int(((stalls[stallIndex].upperBound - firstEvent) / interval).rounded(.up))
      }
      if event != currentEvent {
        currentEvent = event
        eventJitter = rng.uniform(bleEventJitterS)
        inEvent = 0
      }
      times.append(
        firstEvent + Double(event) * interval + eventJitter + Double(inEvent) * bleLineSpacingS)
      inEvent += 1
    }
    return times
  }
}
