import LiftBuddyCore

/// Compares the lift reports an analysis produced with a stream's truth.
///
/// Sets are paired one-to-one by how long their time spans overlap, reps by
/// how much their concentric intervals overlap (intersection over union),
/// greedily from the best pair down. Reps are paired across the whole
/// stream, not within paired sets, so that a set split or merged by the
/// analysis still has its reps' velocities scored: the set-level failure
/// shows in the set counts already.
public enum Scorer {
  public static func score(reports: [LiftReport], truth: Truth) -> Score {
    score(sets: reports.map(FoundSet.init), truth: truth)
  }

  /// As `score(reports:truth:)`, plus the latency of the analyzer's rep
  /// events (`TimedAnalysis`).
  public static func score(_ analysis: TimedAnalysis.Outcome, truth: Truth) -> Score {
    var score = score(reports: analysis.reports, truth: truth)
    let truthReps = truth.sets.flatMap(\.reps)
    let spans = truthReps.map { ($0.concentricStartS, $0.concentricEndS) }
    let finals = analysis.finalReps
    var first: [Int: Double] = [:]
    for pair in pairs(
      finals.map { ($0.rep.concentricStartS, $0.rep.concentricEndS) }, spans,
      by: intersectionOverUnion)
    {
      let latency = finals[pair.found].streamTime - truthReps[pair.truth].concentricEndS
      score.repLatencies.append(latency)
      first[pair.truth] = latency
    }
    let provisionals = analysis.provisionalReps
    let provisionalPairs = pairs(
      provisionals.map { ($0.rep.concentricStartS, $0.rep.concentricEndS) }, spans,
      by: intersectionOverUnion)
    for pair in provisionalPairs {
      let latency = provisionals[pair.found].streamTime - truthReps[pair.truth].concentricEndS
      score.provisionalLatencies.append(latency)
      first[pair.truth] = min(first[pair.truth] ?? latency, latency)
    }
    score.firstEventLatencies = first.keys.sorted().map { first[$0]! }
    score.falseProvisionals = provisionals.count - provisionalPairs.count
    return score
  }

  public static func score(sets reports: [FoundSet], truth: Truth) -> Score {
    var score = Score()
    score.streams = 1
    score.sets = truth.sets.count
    score.reportedSets = reports.count
    if reports.count != truth.sets.count { score.setCountMismatches = 1 }

    let setPairs = pairs(
      reports.map { ($0.startS, $0.endS) }, truth.sets.map { ($0.startS, $0.endS) }, by: overlap)
    score.extraSets = reports.count - setPairs.count
    score.missedSets = truth.sets.count - setPairs.count
    score.exactSets =
      setPairs.filter { reports[$0.found].reps.count == truth.sets[$0.truth].reps.count }.count
    score.phantomSets =
      reports.filter { r in
        !truth.sets.contains { overlap((r.startS, r.endS), ($0.startS, $0.endS)) > 0 }
      }.count

    let foundReps = reports.flatMap(\.reps)
    let truthReps = truth.sets.flatMap(\.reps)
    let repPairs = pairs(
      foundReps.map { ($0.concentricStartS, $0.concentricEndS) },
      truthReps.map { ($0.concentricStartS, $0.concentricEndS) }, by: intersectionOverUnion)
    score.reps = truthReps.count
    score.matchedReps = repPairs.count
    score.extraReps = foundReps.count - repPairs.count
    score.missedReps = truthReps.count - repPairs.count
    for pair in repPairs {
      let found = foundReps[pair.found]
      let real = truthReps[pair.truth]
      score.meanVelocity.add(found.meanVelocityMps - real.meanVelocityMps)
      score.peakVelocity.add(found.peakVelocityMps - real.peakVelocityMps)
      score.rom.add(found.romCm - real.romCm)
      score.concentricStart.add(found.concentricStartS - real.concentricStartS)
      score.concentricEnd.add(found.concentricEndS - real.concentricEndS)
      if let p = found.maxAbsPitchDeg, let truePitch = real.maxAbsPitchDeg {
        score.tilt.add(p - truePitch)
      }
      if let r = found.maxAbsRollDeg, let trueRoll = real.maxAbsRollDeg {
        score.tilt.add(r - trueRoll)
      }
      if real.stickingPointCm != nil {
        score.stickingReps += 1
        if found.stickingPointCm != nil { score.stickingFound += 1 }
      } else {
        score.smoothReps += 1
        if found.stickingPointCm != nil { score.stickingClaimed += 1 }
      }
    }
    return score
  }

  typealias Span = (start: Double, end: Double)

  /// One-to-one pairs with a positive affinity, best first; ties go to the
  /// earlier item so the result never depends on sort stability.
  static func pairs(_ found: [Span], _ truth: [Span], by affinity: (Span, Span) -> Double) -> [(
    found: Int, truth: Int
  )] {
    var candidates: [(found: Int, truth: Int, value: Double)] = []
    for (i, f) in found.enumerated() {
      for (j, t) in truth.enumerated() {
        let value = affinity(f, t)
        if value > 0 { candidates.append((i, j, value)) }
      }
    }
    candidates.sort { a, b in
      a.value != b.value ? a.value > b.value : (a.found, a.truth) < (b.found, b.truth)
    }
    var usedFound = Set<Int>()
    var usedTruth = Set<Int>()
    var result: [(found: Int, truth: Int)] = []
    for c in candidates where !usedFound.contains(c.found) && !usedTruth.contains(c.truth) {
      usedFound.insert(c.found)
      usedTruth.insert(c.truth)
      result.append((c.found, c.truth))
    }
    return result
  }

  static func overlap(_ a: Span, _ b: Span) -> Double {
    min(a.end, b.end) - max(a.start, b.start)
  }

  static func intersectionOverUnion(_ a: Span, _ b: Span) -> Double {
    let inter = overlap(a, b)
    guard inter > 0 else { return 0 }
    return inter / (max(a.end, b.end) - min(a.start, b.start))
  }
}
