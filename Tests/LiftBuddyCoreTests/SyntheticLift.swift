@testable import LiftBuddyCore

/// Bar trajectories with exactly known turnarounds, for tests that need
/// truth without the simulator: half-sine velocity phases (the bar leaves
/// and reaches rest with finite acceleration), optional pauses.
struct SyntheticLift {
  struct Phase {
    var duration: Double
    /// Height change in cm (negative: down); 0 for a pause.
    var deltaCm: Double
    /// Where the velocity peaks, as a share of the phase: a quarter sine
    /// up to it and another down from it, 0.5 the half sine. A drive out
    /// of a bounce peaks earlier: its force falls as the bar speeds up
    /// (the force–velocity relation), so its acceleration falls from the
    /// bounce on.
    var peakShare = 0.5
    /// The push builds from rest (a pull off the floor): the velocity
    /// 12u²(1 − u), leaving zero as a square rather than a sine's slope,
    /// its peak 16/9 of the mean at u = 2/3. `peakShare` is then unused.
    var pushBuilds = false
  }
  struct TrueRep {
    var start: Double
    var end: Double
    var romCm: Double
    var meanMps: Double
    var peakMps: Double
  }

  var startCm: Double
  var leadIn: Double
  var phases: [Phase]

  /// Height at time t (cm).
  func height(at t: Double) -> Double {
    var h = startCm
    var t0 = leadIn
    if t < t0 { return h }
    for p in phases {
      if t < t0 + p.duration {
        let u = (t - t0) / p.duration
        return h
          + p.deltaCm
          * (p.pushBuilds
            ? 4 * u * u * u - 3 * u * u * u * u
            : travelled(u, peakShare: p.peakShare))
      }
      h += p.deltaCm
      t0 += p.duration
    }
    return h
  }

  /// The share of a phase's travel done at `u` of its time: the velocity
  /// V·sin(πu/2r) up to the peak at r, V·cos(π(u − r)/2(1 − r)) after.
  private func travelled(_ u: Double, peakShare r: Double) -> Double {
    // The half sine in one term, as the tests before other shapes read it.
    guard r != 0.5 else { return (1 - cosPi(u)) / 2 }
    return u <= r
      ? r * (1 - cosPi(u / (2 * r)))
      : r + (1 - r) * cosPi((u - r) / (2 * (1 - r)) - 0.5)
  }

  var endTime: Double { leadIn + phases.reduce(0) { $0 + $1.duration } }

  /// Every upward phase is a concentric phase.
  var truth: [TrueRep] {
    var out: [TrueRep] = []
    var t0 = leadIn
    for p in phases {
      if p.deltaCm > 0 {
        let rom = p.deltaCm
        let mean = rom / 100 / p.duration
        out.append(
          TrueRep(
            start: t0, end: t0 + p.duration, romCm: rom, meanMps: mean,
            peakMps: mean * (p.pushBuilds ? 16.0 / 9 : Double.pi / 2)))
      }
      t0 += p.duration
    }
    return out
  }

  /// Protocol lines at `rateHz`, heights rounded to whole cm (as the
  /// original clip sends them), with an `a:` line after each `s:` line.
  func lines(rateHz: Double, tail: Double = 3, roll: (Double) -> Double = { _ in 0.5 }) -> [(
    t: Double, line: String
  )] {
    var out: [(Double, String)] = []
    var n = 0
    while true {
      let t = Double(n) / rateHz
      if t > endTime + tail { break }
      out.append((t, "s:\(Int(height(at: t).rounded()))"))
      out.append((t, "a:0.5:\(roll(t))"))
      n += 1
    }
    return out
  }

  /// A squat set: `reps` reps of a 1.0 s descent, `pause` at the bottom, a
  /// concentric of `up` s, `top` s at lockout.
  static func squat(
    reps: Int, romCm: Double = 55, up: Double = 0.8, pause: Double = 0.2, top: Double = 1.5
  )
    -> SyntheticLift
  {
    var phases: [Phase] = []
    for _ in 0..<reps {
      phases.append(Phase(duration: 1.0, deltaCm: -romCm))
      if pause > 0 { phases.append(Phase(duration: pause, deltaCm: 0)) }
      phases.append(Phase(duration: up, deltaCm: romCm))
      phases.append(Phase(duration: top, deltaCm: 0))
    }
    return SyntheticLift(startCm: 140, leadIn: 3, phases: phases)
  }

  /// A deadlift set from a floor at 22 cm: `reps` pulls of `romCm` over
  /// `up` s, held `hold` s at lockout, lowered over `down` s, resting
  /// `rest` s on the floor; then 20 s on the floor.
  static func deadlift(
    reps: Int, romCm: Double, up: Double, hold: Double, down: Double, rest: Double,
    pushBuilds: Bool = false
  ) -> SyntheticLift {
    var phases: [Phase] = []
    for _ in 0..<reps {
      phases += [
        Phase(duration: up, deltaCm: romCm, pushBuilds: pushBuilds),
        Phase(duration: hold, deltaCm: 0),
      ]
      phases += [Phase(duration: down, deltaCm: -romCm), Phase(duration: rest, deltaCm: 0)]
    }
    phases.append(Phase(duration: 20, deltaCm: 0))
    return SyntheticLift(startCm: 22, leadIn: 3, phases: phases)
  }

  /// Presses for reps with neither end held: `reps` rises of `romCm` over
  /// `up` s, each lowered straight back over `down` s, from the shoulders.
  static func continuousPresses(
    reps: Int, romCm: Double = 55, up: Double = 1, down: Double = 1, startCm: Double = 90,
    peakShare: Double = 0.5
  ) -> SyntheticLift {
    var phases: [Phase] = []
    for _ in 0..<reps {
      phases += [
        Phase(duration: up, deltaCm: romCm, peakShare: peakShare),
        Phase(duration: down, deltaCm: -romCm),
      ]
    }
    return SyntheticLift(startCm: startCm, leadIn: 3, phases: phases)
  }

  /// `lines(rateHz:)` read through `sigmaCm` of Gaussian noise, in whole
  /// centimetres: a soft floor, the same on every run for a seed. Over
  /// `frozen`, if given, the sonar hangs, repeating the value it read as
  /// the hang began.
  func noisyLines(
    rateHz: Double, sigmaCm: Double, seed: UInt64, frozen: ClosedRange<Double>? = nil
  ) -> [(t: Double, line: String)] {
    var rng = SeededNoise(seed: seed)
    var stuckAt: Int? = nil
    return lines(rateHz: rateHz).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:") else { return line }
      var cm = Int((height(at: line.t) + sigmaCm * rng.gaussian()).rounded())
      if frozen?.contains(line.t) == true {
        stuckAt = stuckAt ?? cm
        cm = stuckAt!
      }
      return (line.t, "s:\(cm)")
    }
  }

  /// Protocol lines at `rateHz` from a millimetre clip read through
  /// `sigmaCm` of Gaussian noise, whose sonar hangs over `frozen`,
  /// repeating the reading it made as the hang began (an HC-SR04 with no
  /// echo timeout).
  func frozenLines(rateHz: Double, sigmaCm: Double, seed: UInt64, frozen: ClosedRange<Double>)
    -> [(t: Double, line: String)]
  {
    var noise = SeededNoise(seed: seed)
    var stuckAt: String? = nil
    var lines: [(t: Double, line: String)] = []
    for n in 0..<Int((endTime + 3) * rateHz) {
      let t = Double(n) / rateHz
      let read = ReportRounding.round(height(at: t) + sigmaCm * noise.gaussian(), 1)
      var line = "s:\(read)"
      if frozen.contains(t) {
        stuckAt = stuckAt ?? line
        line = stuckAt!
      }
      lines.append((t, line))
      lines.append((t, "a:0.5:0.5"))
    }
    return lines
  }

  private func cosPi(_ u: Double) -> Double {
    // cos(πu) by a short Taylor-free route: the core has no Foundation, nor
    // do these tests need it.
    var x = u.truncatingRemainder(dividingBy: 2) * Double.pi
    if x > Double.pi { x -= 2 * Double.pi }
    // Range-reduced cosine via Chebyshev-accurate series (|x| ≤ π).
    let x2 = x * x
    var term = 1.0
    var sum = 1.0
    for k in 1...14 {
      term *= -x2 / Double((2 * k - 1) * (2 * k))
      sum += term
    }
    return sum
  }
}

/// Runs lines through an analyzer and collects its events.
func analyze(
  _ lines: [(t: Double, line: String)], configuration: AnalyzerConfiguration = .init(),
  session: SessionInfo = SessionInfo(source: "test", exercise: .squat)
) -> [AnalyzerEvent] {
  var analyzer = Analyzer(configuration: configuration, session: session)
  var events: [AnalyzerEvent] = []
  for (t, line) in lines { analyzer.ingest(line: line, at: t, into: &events) }
  analyzer.finish(into: &events)
  return events
}

/// As `analyze`, noting for each final rep event told while the lines were
/// fed (not at `finish`) the time of the line fed before it: how soon a
/// live subscriber hears of the rep.
func analyzeTimed(
  _ lines: [(t: Double, line: String)], configuration: AnalyzerConfiguration = .init(),
  session: SessionInfo = SessionInfo(source: "test", exercise: .squat)
) -> (events: [AnalyzerEvent], repsToldAt: [Double]) {
  var analyzer = Analyzer(configuration: configuration, session: session)
  var events: [AnalyzerEvent] = []
  var toldAt: [Double] = []
  for (t, line) in lines {
    var e: [AnalyzerEvent] = []
    analyzer.ingest(line: line, at: t, into: &e)
    toldAt += e.reps.map { _ in t }
    events += e
  }
  analyzer.finish(into: &events)
  return (events, toldAt)
}

extension Array where Element == AnalyzerEvent {
  var reports: [LiftReport] { compactMap { if case .lift(let r) = $0 { r } else { nil } } }
  var reps: [RepEvent] { compactMap { if case .rep(let r) = $0 { r } else { nil } } }
}
