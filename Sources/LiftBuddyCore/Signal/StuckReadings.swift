/// Readings an HC-SR04 repeated while the bar moved on unseen, found once
/// the readings after them are in.
///
/// A sonar that misses its echoes may repeat its last value for several
/// readings (3–10 seen, `TrackGate`). Online the gate cannot tell such a
/// run from a bar that stopped; the measurer, which looks back at a whole
/// rep, can: a bar that really sat still for the run cannot then be
/// somewhere else one period later. Left in, the repeats read as a pause
/// where the bar was rising, and the rep's start lands after them (a 0.5 m/s
/// squat read 1.3 m/s). Dropped, the rep's ends are fitted across the gap
/// they leave, from the readings on either side.
enum StuckReadings {
  /// The shortest run counted as stuck: two equal readings are a resting
  /// bar often enough.
  static let minRun = 3

  /// `samples` without the repeats (all but the first reading) of each run
  /// of one value that ends in a jump no bar could make from rest, the
  /// next reading staying nearer the jump than the run: beyond
  /// the sonar's margin plus what the hardest acceleration
  /// (`TrackGate.maxAccelerationCmPerS2`) covers in the time to the next
  /// reading. The first reading of a run is the sonar's last good one.
  /// With `bridged`, the repeats are replaced by the straight path from
  /// there to the next good reading instead: what is left when a run hid
  /// the whole rise, and a rep still has a start and an end.
  static func removed(from samples: [TimedHeight], bridged: Bool = false) -> [TimedHeight] {
    guard samples.count > minRun else { return samples }
    var stuck: [Range<Int>] = []
    var start = 0
    for i in 1...samples.count {
      guard i == samples.count || samples[i].cm != samples[start].cm else { continue }
      // The reading after the jump must stay with it: one reading off is a
      // spike the despiker let through, and the run a resting bar.
      if i - start >= minRun, i + 1 < samples.count, jumped(from: samples[i - 1], to: samples[i]),
        abs(samples[i + 1].cm - samples[i].cm) < abs(samples[i + 1].cm - samples[i - 1].cm)
      {
        stuck.append((start + 1)..<i)
      }
      start = i
    }
    guard !stuck.isEmpty else { return samples }
    var kept: [TimedHeight] = []
    kept.reserveCapacity(samples.count)
    var next = 0
    for run in stuck {
      kept.append(contentsOf: samples[next..<run.lowerBound])
      if bridged {
        let a = samples[run.lowerBound - 1]
        let b = samples[run.upperBound]
        for s in samples[run] {
          kept.append(TimedHeight(t: s.t, cm: a.cm + (b.cm - a.cm) * (s.t - a.t) / (b.t - a.t)))
        }
      }
      next = run.upperBound
    }
    kept.append(contentsOf: samples[next...])
    return kept
  }

  private static func jumped(from a: TimedHeight, to b: TimedHeight) -> Bool {
    abs(b.cm - a.cm) > reach(after: b.t - a.t)
  }

  /// The farthest a bar at rest can be read to go in `dt`: the sonar's
  /// margin plus the hardest acceleration's reach.
  static func reach(after dt: Double) -> Double {
    TrackGate.marginCm + 0.5 * TrackGate.maxAccelerationCmPerS2 * dt * dt
  }
}
