import Testing

@testable import LiftBuddyCore

@Suite struct SampleClockTests {
  /// Runs arrivals through a clock; returns the sample times it gives.
  func times(_ arrivals: [Double], rate: Double = 20) -> [Double] {
    var clock = SampleClock(nominalRateHz: rate)
    var out: [Double] = []
    for (i, t) in arrivals.enumerated() {
      clock.push(arrival: t, cm: Double(i), deviceMillis: nil) { out.append($0.t) }
    }
    clock.flush { out.append($0.t) }
    return out
  }

  @Test func serialArrivalsPassWithTheirJitter() {
    let truth = (0..<100).map { Double($0) / 20 }
    let arrivals = truth.enumerated().map { $0.element + 0.002 + Double($0.offset % 3) * 0.001 }
    let got = times(arrivals)
    #expect(got.count == 100)
    for (g, t) in zip(got, truth) { #expect(abs(g - t) < 0.005) }
  }

  @Test func bleBurstsAreSpreadBackOntoTheSampleClock() {
    // 20 Hz samples, delivered in 45 ms connection events, and one 400 ms
    // stall that ends in a burst of everything buffered.
    let truth = (0..<200).map { Double($0) / 20 }
    let arrivals = truth.map { t -> Double in
      if t >= 4.0 && t < 4.4 { return 4.42 }
      return (t / 0.045).rounded(.up) * 0.045 + 0.001
    }
    let got = times(arrivals)
    #expect(got.count == truth.count)
    var worst = 0.0
    for (g, t) in zip(got, truth) { worst = max(worst, abs(g - t)) }
    // Raw arrivals are up to 420 ms off; the clock stays within a BLE interval.
    #expect(worst < 0.05)
    // Never backwards, never two samples at one instant.
    for i in 1..<got.count { #expect(got[i] > got[i - 1]) }
  }

  @Test func lostSamplesLeaveAGapInsteadOfCompressingTime() {
    // 20 Hz, then nothing for 0.5 s (samples lost), then 20 Hz again.
    var arrivals = (0..<40).map { Double($0) / 20 + 0.003 }
    arrivals += (0..<40).map { 2.5 + Double($0) / 20 + 0.003 }
    let got = times(arrivals)
    #expect(abs(got[40] - 2.503) < 0.01)
    #expect(got[40] - got[39] > 0.4)
  }

  @Test func measuresTheRateItIsGiven() {
    // Header says 20 Hz; the clip really sends 31 Hz.
    var clock = SampleClock(nominalRateHz: 20)
    for i in 0..<200 { clock.push(arrival: Double(i) / 31, cm: 0, deviceMillis: nil) { _ in } }
    #expect(abs(clock.period - 1 / 31.0) < 0.0005)
  }

  @Test func deviceClockFollowsTheLowerEnvelopeOfArrivals() {
    var clock = SampleClock(nominalRateHz: 20)
    var got: [Double] = []
    for n in 0..<100 {
      let t = Double(n) / 20
      let arrival = t + 0.010 + Double(n % 4) * 0.02  // 10–70 ms late
      clock.push(arrival: arrival, cm: 0, deviceMillis: UInt64(80_000 + n * 50)) {
        got.append($0.t)
      }
    }
    // The offset may creep up by 1 % of device time between the early
    // arrivals (every 4th here), so it is within 3 × 0.5 ms of the envelope.
    let creep = 3 * SampleClock.deviceClockCreep * 0.05 + 1e-9
    for (n, g) in got.enumerated() {
      let envelope = Double(n) / 20 + 0.010
      #expect(g >= envelope - 1e-9 && g <= envelope + creep)
    }
  }
}
