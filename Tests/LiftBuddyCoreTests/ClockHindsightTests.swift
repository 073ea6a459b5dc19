import Testing

@testable import LiftBuddyCore

@Suite struct ClockHindsightTests {
  /// Runs arrivals through a clock: the times it gave, and the clock with
  /// its hindsight.
  func clocked(_ arrivals: [Double], rate: Double = 20) -> (times: [Double], clock: SampleClock) {
    var clock = SampleClock(nominalRateHz: rate)
    var out: [Double] = []
    for (i, t) in arrivals.enumerated() {
      clock.push(arrival: t, cm: Double(i), deviceMillis: nil) { out.append($0.t) }
    }
    clock.flush { out.append($0.t) }
    return (out, clock)
  }

  /// The worst error of the times given and of the same times revised,
  /// over the samples with `laterReadings` after them.
  func worst(_ truth: [Double], _ arrivals: [Double]) -> (given: Double, revised: Double) {
    let (got, clock) = clocked(arrivals)
    var given = 0.0
    var revised = 0.0
    for i in 0..<(truth.count - ClockHindsight.laterReadings) {
      given = max(given, abs(got[i] - truth[i]))
      revised = max(revised, abs(clock.hindsight.time(got[i]) - truth[i]))
    }
    return (given, revised)
  }

  @Test func aStallWhoseBacklogTricklesOutIsPutBackWhereItWas() {
    // 20 Hz, 3 ms late, until the link stalls for 0.4 s and then drains
    // what it held two readings per 20-ms event: the clock takes the first
    // event for readings lost and re-anchors them to its arrival.
    let truth = (0..<200).map { Double($0) / 20 }
    let arrivals = truth.enumerated().map { n, t -> Double in
      guard t >= 4.0 else { return t + 0.003 }
      let queued = n - 80
      return max(t + 0.003, 4.42 + 0.02 * Double(queued / 2))
    }
    let (given, revised) = worst(truth, arrivals)
    #expect(given > 0.3)
    // The first reading held is bounded only by the backlog's own
    // arrivals: the tenth after it came 20 ms after it was due.
    #expect(revised < 0.025)
  }

  @Test func aLostReadingTakenForBufferingIsPutBackWhereItWas() {
    // 20 Hz, 3 ms late; one reading never arrives. Two periods of silence
    // pass for buffering, and the clock places the readings after it a
    // period early until it catches up.
    let truth = (0..<200).map { Double($0) / 20 }.filter { $0 != 5.0 }
    let arrivals = truth.map { $0 + 0.003 }
    let (given, revised) = worst(truth, arrivals)
    #expect(given > 0.03)
    #expect(revised < 0.010)
  }

  @Test func revisedTimesInterpolateBetweenSamplesAndCarryTheNewestForward() {
    var h = ClockHindsight()
    // Samples given 10 ms late, arriving on time: every revision is −10 ms.
    for n in 0..<40 {
      let t = Double(n) / 20
      h.note(t: t + 0.010, arrival: t, period: 0.05)
    }
    #expect(abs(h.time(0.510) - 0.5) < 1e-9)
    #expect(abs(h.time(0.535) - 0.525) < 1e-9)
    #expect(abs(h.time(10) - 9.99) < 1e-9)
    // Before anything was revised, a time stands.
    #expect(h.time(-1) == -1)
  }
}

@Suite struct ClockHindsightAnalyzerTests {
  /// `lines` as a link that stalls once in each concentric phase, 0.1 s
  /// into it, for `stallS`, and then drains what it held four lines (two
  /// readings) per 20-ms event, the lines after it queued behind; 3 ms
  /// late otherwise.
  func stalled(_ lift: SyntheticLift, _ lines: [(t: Double, line: String)], stallS: Double)
    -> [(t: Double, line: String)]
  {
    let stalls = lift.truth.map { ($0.start + 0.1)..<($0.start + 0.1 + stallS) }
    var held = 0
    var latest = -Double.infinity
    return lines.map { line -> (t: Double, line: String) in
      var arrival = line.t + 0.003
      if let stall = stalls.first(where: { $0.contains(line.t) }) {
        arrival = stall.upperBound + 0.02 * Double(held / 4)
        held += 1
      } else if held > 0 {
        // What came after the stall queues behind what it held.
        arrival = max(arrival, latest + 0.02 * Double(held % 4 == 0 ? 1 : 0))
        held = arrival > line.t + 0.003 ? held + 1 : 0
      }
      latest = max(latest, arrival)
      return (latest, line.line)
    }
  }

  @Test func repsAcrossAStalledLinkAreMeasuredOnTheirOwnTimes() {
    let lift = SyntheticLift.squat(reps: 5, up: 0.8, pause: 0)
    // A 0.2-s stall: the clock takes the first lines after it for readings
    // lost and re-anchors them late, and on those times the squats
    // (0.69 m/s) read 0.26 m/s fast; on the revised times, within the
    // measurer's own error on these half sines (0.024 m/s on the last
    // rep, whose times the stall does not move).
    // (A 0.3-s stall still beats it: on the times given at first, the
    // track gate drops the readings of the drive, and no later
    // measurement brings them back.)
    let lines = stalled(lift, lift.lines(rateHz: 20), stallS: 0.2)
    let reps = analyze(lines).reports.flatMap(\.reps)
    #expect(reps.count == 5)
    let errors = zip(reps, lift.truth).map { $0.meanVelocityMps - $1.meanMps }
    #expect(errors.allSatisfy { abs($0) < 0.03 }, "\(errors)")
  }
}
