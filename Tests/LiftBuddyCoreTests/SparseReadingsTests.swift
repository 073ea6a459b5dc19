import Testing

@testable import LiftBuddyCore

/// The clip's rate is not the rep's: a BLE clip that skips pings sends
/// half its readings, and a light bench press rises in 0.3 s.
@Suite struct SparseReadingsTests {
  /// A rep's measurement window shrinks with the rep (0.35 of its rise),
  /// never below 0.15 s: three readings at 20 Hz, one or two at 10 Hz,
  /// where a line cannot be fitted and the rep was lost. Such a rise is
  /// measured again over three of its own reading spacings.
  @Test func aFastRepReadAtHalfTheRateIsCounted() {
    let lift = SyntheticLift.squat(reps: 5, romCm: 30, up: 0.3, pause: 0, top: 1.5)
    var n = 0
    let lines = lift.lines(rateHz: 20).filter { line in
      guard line.line.hasPrefix("s:") else { return true }
      n += 1
      return n % 2 == 0
    }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .benchPress))
      .reports
    #expect(reports.map(\.reps.count) == [5])
    for (got, want) in zip(reports.first?.reps ?? [], lift.truth) {
      #expect(abs(got.romCm - want.romCm) < 3, "rom \(got.romCm)")
      #expect(abs(got.meanVelocityMps - want.meanMps) < 0.3, "mean \(got.meanVelocityMps)")
    }
  }

  /// The second attempt widens a slow rep's window too. A rep rising
  /// over 0.7 s or more is measured over the default window (0.25 s),
  /// which at 7.5 Hz (a dirty clip whose every other ping comes back
  /// empty) holds one reading: no line, no velocity, the rep lost
  /// (independent looked-at 60020, a deadlift over a dirty floor). A
  /// ramp with no reading on it is not widened over
  /// (`RepMeasurer.sparseRampReadings`).
  @Test(arguments: [0.9, 1.4])
  func aSlowRepReadAtAQuarterOfTheRateIsCounted(up: Double) {
    let lift = SyntheticLift.squat(reps: 4, romCm: 50, up: up, pause: 0.3, top: 2)
    var n = 0
    let lines = lift.lines(rateHz: 30).filter { line in
      guard line.line.hasPrefix("s:") else { return true }
      n += 1
      return n % 4 == 0
    }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .squat)).reports
    #expect(reports.map(\.reps.count) == [4])
    for (got, want) in zip(reports.first?.reps ?? [], lift.truth) {
      #expect(abs(got.romCm - want.romCm) < 3, "rom \(got.romCm)")
      #expect(abs(got.meanVelocityMps - want.meanMps) < 0.1, "mean \(got.meanVelocityMps)")
    }
  }

  /// A slow pull (55 cm in 2 s) read at 15 Hz, whose sonar answers only
  /// every other ping (`s:0`, NewPing's no-echo) from just after the bar
  /// leaves the floor to its lockout: the rise's mean spacing, its floor
  /// read at the full rate, keeps the measuring window at 0.25 s, which
  /// on the ramp holds one reading. A fit through one reading has no
  /// slope: read as 0 m/s, it put the lockout a third of the way up and
  /// the rep, measured at 14 cm of 55, was lost (independent looked-at
  /// 1020055, a dead-stop deadlift). A one-reading window's slope now
  /// reaches back to the reading before (`LocalFit.kinematics`).
  @Test(arguments: [(2.0, 0), (2.0, 1), (1.6, 0)])
  func aSlowPullHeardOnEveryOtherPingIsMeasuredWhole(up: Double, phase: Int) {
    let lift = SyntheticLift.deadlift(reps: 3, romCm: 55, up: up, hold: 1, down: 1.5, rest: 3)
    let pulls = lift.truth.map { ($0.start + 0.3)...($0.end + 1) }
    var n = phase
    let lines = lift.lines(rateHz: 15).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:"), pulls.contains(where: { $0.contains(line.t) }) else {
        return line
      }
      n += 1
      return n % 2 == 0 ? (line.t, "s:0") : line
    }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .deadlift))
      .reports
    #expect(reports.map(\.reps.count) == [3])
    for (got, want) in zip(reports.first?.reps ?? [], lift.truth) {
      #expect(abs(got.romCm - want.romCm) < 3, "rom \(got.romCm)")
      #expect(abs(got.meanVelocityMps - want.meanMps) < 0.05, "mean \(got.meanVelocityMps)")
    }
  }

  /// A fast squat (55 cm in 0.4–0.45 s) read at 15 Hz by a sonar whose
  /// every other ping comes back empty (`s:400`): three readings on its
  /// rise, one or none inside its 20–80 %, so the slow window was not
  /// widened (`RepMeasurer.sparseRampReadings`) and held one reading: the
  /// reps were lost (independent looked-at 90073: 1 of 3 counted, or
  /// none). A rise whose readings came at their own rate and climbed all
  /// the way (`RepMeasurer.climbedAtItsRate`) is widened over all the same;
  /// a sonar switching between two levels climbs back down. Three
  /// readings 0.13 s apart cannot place a 0.4-s rep's ends: over the
  /// widened window it reads 10–35 % slow (never fast), its range right.
  @Test(arguments: [(0.4, 0), (0.42, 1), (0.45, 0), (0.45, 1)])
  func aFastRepReadAtHalfOfFifteenHertzIsCounted(up: Double, phase: Int) {
    let lift = SyntheticLift.squat(reps: 3, romCm: 55, up: up, pause: 0.2, top: 1.5)
    var n = phase
    let lines = lift.lines(rateHz: 15).map { line -> (t: Double, line: String) in
      guard line.line.hasPrefix("s:") else { return line }
      n += 1
      return n % 2 == 0 ? (line.t, "s:400") : line
    }
    let reports = analyze(lines, session: SessionInfo(source: "test", exercise: .squat)).reports
    #expect(reports.map(\.reps.count) == [3])
    for (got, want) in zip(reports.first?.reps ?? [], lift.truth) {
      #expect(abs(got.romCm - want.romCm) < 3, "rom \(got.romCm)")
      #expect(got.meanVelocityMps <= want.meanMps, "mean \(got.meanVelocityMps)")
      #expect(got.meanVelocityMps >= 0.6 * want.meanMps, "mean \(got.meanVelocityMps)")
    }
  }

  /// What `RepMeasurer.climbedAtItsRate` takes for a ramp read at its
  /// rate: readings every 0.065 s that climb; not a sonar switching between
  /// the floor (22) and an echo 9 cm above it at that rate (looked-at
  /// 100063, whose switches made "pulls" when this widened the window for
  /// any ramp), nor a climb across a gap.
  @Test func aRampReadAtItsRateClimbsAllTheWay() {
    let rise = TurnFinder.Rise(
      valley: TimedHeight(t: 0, cm: 22), peak: TimedHeight(t: 0.52, cm: 80), arrivedAtValleyT: 0)
    func readings(_ cms: [Double]) -> [TimedHeight] {
      cms.enumerated().map { TimedHeight(t: Double($0.offset) * 0.065, cm: $0.element) }
    }
    let climb: [Double] = [22, 24, 30, 40, 51, 62, 72, 78, 80]
    #expect(RepMeasurer.climbedAtItsRate(readings(climb), rise: rise, noiseCm: 0.5))
    let switching: [Double] = [22, 31, 22, 31, 22, 31, 22, 31, 80]
    #expect(!RepMeasurer.climbedAtItsRate(readings(switching), rise: rise, noiseCm: 0.5))
    var gapped = readings(climb)
    gapped.removeSubrange(3...5)
    #expect(!RepMeasurer.climbedAtItsRate(gapped, rise: rise, noiseCm: 0.5))
  }

  /// A sonar that hears nothing for a whole concentric phase (no echo:
  /// `s:400`, its maximum range, from just before the bar leaves the
  /// bottom until just after it locks out) still shows a squat that left
  /// the set's bottom after its descent and stood at the set's top: the
  /// rep is counted, measured along the straight path across the silence
  /// (a lower bound on its speed), not lost. A sonar that answers inside
  /// the silence, or reads the bottom again after the top, is no silence
  /// (`RepMeasurer.bridgedAcrossSilence`).
  @Test(arguments: [0.5, 0.8])
  func aConcentricPhaseTheSonarNeverHeardIsCounted(up: Double) {
    let lift = SyntheticLift.squat(reps: 5, romCm: 55, up: up, pause: 0.1, top: 1.5)
    let hidden = lift.truth[2]
    let lines = lift.lines(rateHz: 20).map { line -> (t: Double, line: String) in
      line.line.hasPrefix("s:") && line.t > hidden.start - 0.05 && line.t < hidden.end + 0.05
        ? (line.t, "s:400") : line
    }
    let reps = analyze(lines, session: SessionInfo(source: "test", exercise: .squat)).reports
      .flatMap(\.reps)
    #expect(reps.count == 5, "\(reps.map(\.concentricStartS))")
    guard reps.count == 5 else { return }
    #expect(abs(reps[2].romCm - 55) < 3, "rom \(reps[2].romCm)")
    #expect(reps[2].meanVelocityMps <= hidden.meanMps * 1.02, "mean \(reps[2].meanVelocityMps)")
    #expect(reps[2].meanVelocityMps >= hidden.meanMps * 0.65, "mean \(reps[2].meanVelocityMps)")
  }

  /// What the sonar sent inside the gap decides whether there is a path
  /// across it (`RepMeasurer.bridgedAcrossSilence`): 1 s at a squat's
  /// bottom (86 cm), 0.6 s with nothing kept, 1 s at its top (147 cm).
  /// Nothing sent: the straight path, a reading every 0.05 s. The top sent
  /// 0.4 s in: the path ends there. The top sent 0.03 s after the last
  /// bottom reading: faster than any bar (legs read as a bottom, looked-at
  /// 40068). The bottom sent again after the top: a sonar switching
  /// between two targets (looked-at 40070).
  @Test func aSilenceIsBridgedOnlyWhenTheSonarSaidNothingAgainstIt() throws {
    var samples = (0..<20).map { TimedHeight(t: Double($0) * 0.05, cm: 86) }
    let bottom = samples[samples.count - 1]
    samples += (0..<20).map { TimedHeight(t: bottom.t + 0.6 + Double($0) * 0.05, cm: 147) }
    let top = samples[20]
    let rise = TurnFinder.Rise(
      valley: bottom, peak: top, previousPeak: TimedHeight(t: -1, cm: 147),
      arrivedAtValleyT: 0)
    func bridged(_ sent: [TimedHeight]) -> [TimedHeight]? {
      RepMeasurer.bridgedAcrossSilence(samples, rise: rise) { from, to in
        sent.filter { $0.t > from && $0.t < to }
      }
    }
    let path = try #require(bridged([]))
    let across = path.filter { $0.t > bottom.t && $0.t < top.t }
    #expect(across.count == 11)
    #expect(across.allSatisfy { abs($0.cm - (86 + 61 * ($0.t - bottom.t) / 0.6)) < 1e-9 })
    let early = TimedHeight(t: bottom.t + 0.4, cm: 146)
    let ended = try #require(bridged([early]))
    #expect(ended.contains(early))
    #expect(ended.filter { $0.t > bottom.t && $0.t < early.t }.count == 7)
    #expect(bridged([TimedHeight(t: bottom.t + 0.03, cm: 146)]) == nil)
    #expect(bridged([early, TimedHeight(t: bottom.t + 0.45, cm: 87)]) == nil)
  }
}
