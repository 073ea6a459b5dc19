import Foundation
import Testing

@testable import LiftBuddyCore

@Suite struct EchoTimingTests {
  /// A bar going up and down between 60 and 160 cm every 3 s.
  func height(at t: Double) -> Double { 110 + 50 * sin(2 * Double.pi * t / 3) }

  /// Deterministic jitter in [0, 1).
  func jitter(_ i: Int) -> Double { Double((i * 7919) % 1000) / 1000 }

  /// Runs (arrival, cm) through a clock; returns the times and the clock.
  func run(_ arrivals: [(Double, Double)], rate: Double) -> ([Double], SampleClock) {
    var clock = SampleClock(nominalRateHz: rate)
    var out: [Double] = []
    for (t, cm) in arrivals {
      clock.push(arrival: t, cm: cm, deviceMillis: nil) { out.append($0.t) }
    }
    clock.flush { out.append($0.t) }
    return (out, clock)
  }

  @Test func aDelayLoopClipIsTimedByItsEchoes() {
    // trigger → pulseIn → print → delay(20): each sample is printed its
    // echo's round trip after the last one's delay ended.
    var sent: [Double] = []
    var heights: [Double] = []
    var t = 0.0
    while t < 60 {
      let cm = height(at: t)
      t += 0.020 + cm * EchoTiming.roundTripSPerCm + 0.001
      sent.append(t)
      heights.append(cm)
    }
    // Over serial: 1 ms plus up to 2 ms of host jitter.
    let arrivals = sent.indices.map { (sent[$0] + 0.001 + 0.002 * jitter($0), heights[$0]) }
    let (got, clock) = run(arrivals, rate: 30)
    #expect(clock.echoSecondsPerCm == EchoTiming.roundTripSPerCm)
    // Over the last 30 s the clock's error moves by 0.1 ms, so every
    // rep's durations are the clip's (spaced evenly, it moved by 71 ms).
    let late = got.indices.filter { sent[$0] > 30 }.map { got[$0] - sent[$0] }
    #expect(late.max()! - late.min()! < 0.003)
  }

  @Test func aClipOnATimerIsNotTakenForADelayLoop() {
    // 25 Hz on a timer, the line printed after its echo, delivered by an
    // FTDI bridge every 16 ms: single deliveries step with the height.
    var arrivals: [(Double, Double)] = []
    for i in 0..<(25 * 120) {
      let sampled = Double(i) / 25
      let cm = height(at: sampled)
      let printed = sampled + cm * EchoTiming.roundTripSPerCm + 0.001
      let delivered = (printed / 0.016).rounded(.up) * 0.016 + 0.0005 * jitter(i)
      arrivals.append((delivered, cm))
    }
    let (_, clock) = run(arrivals, rate: 25)
    #expect(clock.echoSecondsPerCm == 0)
  }

  @Test func aClipThatSkipsFailedPingsHighUpIsNotTakenForADelayLoop() {
    // 25 Hz on a timer; a ping that fails is not sent (barclip-2.0), and
    // they fail more where the bar is high: over a second of arrivals the
    // mean period then grows with the height, as a delay loop's does,
    // though far faster than any echo makes it.
    var arrivals: [(Double, Double)] = []
    for i in 0..<(25 * 120) {
      let sampled = Double(i) / 25
      let cm = height(at: sampled)
      if cm > 140 && i % 3 == 0 { continue }
      arrivals.append((sampled + 0.002 + 0.002 * jitter(i), cm))
    }
    let (_, clock) = run(arrivals, rate: 25)
    #expect(clock.echoSecondsPerCm == 0)
  }

  @Test func noEchoWaitedForTheLongestEcho() {
    #expect(EchoTiming.echoCm(0) == EchoTiming.noEchoCm)
    #expect(EchoTiming.echoCm(450) == EchoTiming.noEchoCm)
    #expect(EchoTiming.echoCm(123.4) == 123.4)
  }
}
