import Foundation

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
  /// A run this long of one value with a fraction of a centimetre, ended
  /// by another reading, from a sonar whose noise is `frozenNoiseCm` or
  /// more, is frozen however it ends. A sonar frozen over a rep's lockout
  /// and the next rep's descent (1.0–1.3 s) ends its run where the bar is
  /// seen again, already going down, in a step no faster than a bar: the
  /// run stayed in, read as the bar standing, and made a squat's lockout a
  /// stall the next rep was lifted out of (independent looked-at 1740003;
  /// `RepRules.followsAStall` judges its stand without such runs).
  /// Looked-at 12,000: missed 825 → 800, invented 148 → 139, no set
  /// unchanged (32 streams better, two worse: a deadlift's pull whose
  /// floor readings after the run the gate had dropped, 1510100, and a
  /// touch-and-go bench press's rep, 450064); ours: held-out missed 20 → 16,
  /// tune 201–600 127 → 113, 601–1000 157 → 140 (a clean-and-press's dip
  /// hidden by a run, its drive then a set of one: no set 2 → 3), the
  /// sweep 3 → 1. Runs of four and of ten counted the same on 4,800 of
  /// those streams; with `TrackGate.stuckNoiseCm` (0.5) for the noise, six
  /// of the reps stayed lost.
  static let frozenRun = 6
  /// Six readings in one millimetre bin of a bar read with this much noise
  /// (σ, cm) happen about once in 8,000 readings by chance (Σ pᵢ⁶ for a
  /// Gaussian over 1-mm bins, (0.1 / σ)⁵ / ((2π)^2.5 √6)), and a resting
  /// bar's repeats dropped cost nothing but readings of the same value;
  /// a clip that reads whole centimetres, or a sonar quieter than this,
  /// repeats values at rest all the time.
  static let frozenNoiseCm = 0.2
  /// A run of one value is frozen however it ends, whatever the clip's
  /// resolution, when a resting bar read with the sonar's noise repeats a
  /// value that often less than once in this many runs (`frozenByChance`).
  /// Left in, such a run reads as the bar standing where it was rising:
  /// a rep's top read 10–30 cm low, or a stand a "rep" was lifted out of.
  /// Independent looked-at 12,000: invented 123 → 116, missed 568 → 562,
  /// exact sets unchanged (32,357; seven streams better, seven worse);
  /// blind looked-at 240: invented 17 → 12, missed 210 → 201, exact sets
  /// unchanged (BENCHMARKS, fifty-ninth pass). Four reports it left with a
  /// range no lift travels are measured on their judged ends
  /// (`RepMeasurer.reportsJudgedEnds`).
  static let maxRestRunChance = 0.001
  /// Only over this much noise: readings independent from one to the
  /// next are what the chance assumes, and under it the measured noise
  /// may be a whole-centimetre clip's rounding on a moving bar (σ ≈ 0.3
  /// cm) while the bar at rest, quieter, repeats its value for as long as
  /// it rests: clean streams' stands were cut from their descents
  /// (SampleStreams squat-serial-clean: a first eccentric of 1.33 s by its
  /// truth, 1.25 s as measured, timed 2.03 s without this floor).
  static let minChanceNoiseCm = 0.5

  /// `samples` without the repeats (all but the first reading) of each run
  /// of one value that ends in a jump no bar could make from rest, the
  /// next reading staying nearer the jump than the run: beyond
  /// the sonar's margin plus what the hardest acceleration
  /// (`TrackGate.maxAccelerationCmPerS2`) covers in the time to the next
  /// reading; and of each run frozen (`frozenRun`), on a sonar that noisy
  /// (`noiseCm`), or longer than its noise repeats a value by chance
  /// (`frozenByChance`). The first reading of a run is the sonar's last
  /// good one.
  /// With `bridged`, the repeats are replaced by the straight path from
  /// there to the next good reading instead: what is left when a run hid
  /// the whole rise, and a rep still has a start and an end.
  static func removed(from samples: [TimedHeight], bridged: Bool = false, noiseCm: Double = 0)
    -> [TimedHeight]
  {
    let noisyEnough = noiseCm >= frozenNoiseCm
    guard samples.count > minRun else { return samples }
    var stuck: [Range<Int>] = []
    var start = 0
    for i in 1...samples.count {
      guard i == samples.count || samples[i].cm != samples[start].cm else { continue }
      // The reading after the jump must stay with it: one reading off is a
      // spike the despiker let through, and the run a resting bar.
      let frozen =
        i < samples.count
        && (noisyEnough && i - start >= frozenRun
          && samples[start].cm != samples[start].cm.rounded()
          || frozenByChance(runLength: i - start, noiseCm: noiseCm))
      if frozen
        || i - start >= minRun && i + 1 < samples.count
          && jumped(from: samples[i - 1], to: samples[i])
          && abs(samples[i + 1].cm - samples[i].cm) < abs(samples[i + 1].cm - samples[i - 1].cm)
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

  /// Whether `n` equal readings are more than a resting bar repeats by
  /// chance. Each reading of a bar at rest lands in the same 1-cm bin as
  /// the one before with probability at most p = erf(0.5 / (σ√2)) (the bar
  /// centred in its bin; millimetre bins only make it rarer), so a run of
  /// `n` has probability at most pⁿ⁻¹. At σ = 1 cm that is under
  /// `maxRestRunChance` from nine readings; at σ = 0.5 cm, from twenty;
  /// a quiet sonar (σ under about 0.3 cm) repeats a whole centimetre for
  /// as long as the bar rests, and no run of its is frozen by this.
  static func frozenByChance(runLength n: Int, noiseCm: Double) -> Bool {
    guard n >= frozenRun, noiseCm >= minChanceNoiseCm else { return false }
    let sameBin = erf(0.5 / (noiseCm * 2.0.squareRoot()))
    return pow(sameBin, Double(n - 1)) < maxRestRunChance
  }
}
