/// Stable machine-readable recommendation keys. Declaration order is the
/// order recommendations appear in a report.
public enum RecommendationCode: String, CaseIterable, Codable, Sendable {
  case rangeOfMotion = "range_of_motion"
  case weakPoint = "weak_point"
  case explosiveness
  case barTilt = "bar_tilt"
  case velocityLoss = "velocity_loss"
}

/// Turns a finished set's reps into plain-English advice.
///
/// A pure function of the reps, so a replay gives the same advice byte for
/// byte. To keep the advice worth reading there is at most one
/// recommendation per code per rep, and a finding shared by many reps is
/// said once for the set (naming the reps) instead of once per rep; see
/// `CoachingThresholds` for every cut-off and where it comes from.
public enum Coach {
  /// Ordered by code (`RecommendationCode` order), then set-level before
  /// per-rep, then by rep.
  public static func recommendations(
    for reps: [RepAnalysis], exercise: Exercise?, loadKg: Double?
  ) -> [Recommendation] {
    let all =
      rangeOfMotion(reps) + weakPoint(reps) + explosiveness(reps, exercise)
      + barTilt(reps, exercise)
      + velocityLoss(reps)
    return all.sorted { a, b in
      let ca = order(of: a.code)
      let cb = order(of: b.code)
      if ca != cb { return ca < cb }
      return (a.rep ?? 0) < (b.rep ?? 0)
    }
  }

  /// Whether a finding on `flagged` of `total` reps is a pattern of the set.
  static func isSetPattern(flagged: Int, of total: Int) -> Bool {
    flagged >= CoachingThresholds.setLevelMinimumReps
      || (flagged >= 2 && Double(flagged) > CoachingThresholds.setLevelRepShare * Double(total))
  }

  /// The lifter pulls a deadlift and pushes everything else.
  fileprivate static func effort(_ exercise: Exercise?) -> String {
    exercise == .deadlift ? "pull" : "push"
  }

  private static func order(of code: String) -> Int {
    RecommendationCode.allCases.firstIndex { $0.rawValue == code } ?? Int.max
  }

  private static func make(
    _ code: RecommendationCode, _ severity: Recommendation.Severity, rep: Int?, _ message: String
  ) -> Recommendation {
    Recommendation(code: code.rawValue, severity: severity, rep: rep, message: message)
  }

  // MARK: range_of_motion

  private static func rangeOfMotion(_ reps: [RepAnalysis]) -> [Recommendation] {
    let roms = reps.map(\.report.romCm)
    guard let longest = roms.max(), let shortest = roms.min(), longest > 0,
      let longestRep = reps.first(where: { $0.report.romCm == longest })?.report.index
    else { return [] }
    let isShort = { (r: RepAnalysis) in
      r.report.romCm < CoachingThresholds.shortRepRomFraction * longest
    }
    let isPartial = { (r: RepAnalysis) in
      r.report.romCm < CoachingThresholds.partialRepRomFraction * longest
    }
    let short = reps.filter(isShort)
    let rest = reps.filter { !isShort($0) }.map(\.report.romCm)
    let spreadIsHigh =
      rest.count >= CoachingThresholds.romSpreadMinimumReps
      && (CoachText.coefficientOfVariation(rest) ?? 0)
        > CoachingThresholds.romSpreadCoefficientOfVariation
    let advice = "Aim for the same full range on every rep."
    let against = "against \(CoachText.cm(longest)) on rep \(longestRep), your longest"

    if spreadIsHigh || isSetPattern(flagged: short.count, of: reps.count) {
      var message =
        "Your range of motion varied from \(CoachText.cm(shortest, unit: false)) to \(CoachText.cm(longest)) across the set."
      if !short.isEmpty {
        let list = CoachText.list(short.map { CoachText.cm($0.report.romCm, unit: false) })
        message +=
          " \(CoachText.reps(short.map(\.report.index)).capitalizedFirst) \(short.count == 1 ? "was" : "were") short: \(list) cm \(against)."
      }
      let severity: Recommendation.Severity = short.contains(where: isPartial) ? .warning : .info
      return [make(.rangeOfMotion, severity, rep: nil, message + " " + advice)]
    }
    return short.map { r in
      let share = CoachText.fixed(r.report.romCm / longest * 100, 0)
      return make(
        .rangeOfMotion, isPartial(r) ? .warning : .info, rep: r.report.index,
        "Rep \(r.report.index) was short: \(CoachText.cm(r.report.romCm)) \(against) (\(share)%). \(advice)"
      )
    }
  }

  // MARK: weak_point

  private static func isStuck(_ r: RepAnalysis) -> Bool {
    (r.stickingDipFraction ?? 0) > CoachingThresholds.stickingDipFraction
  }

  private static func weakPoint(_ reps: [RepAnalysis]) -> [Recommendation] {
    let stuck = reps.filter(isStuck)
    let advice = "Paused reps or partials from around that height build strength there."
    if isSetPattern(flagged: stuck.count, of: reps.count) {
      let worst = CoachText.fixed((stuck.compactMap(\.stickingDipFraction).max() ?? 0) * 100, 0)
      let heights = stuck.compactMap(\.report.stickingPointCm)
      var place = ""
      if let low = heights.min(), let high = heights.max() {
        place =
          low == high
          ? ", \(CoachText.cm(low)) above the bottom"
          : ", between \(CoachText.cm(low, unit: false)) and \(CoachText.cm(high)) above the bottom"
      }
      return [
        make(
          .weakPoint, .info, rep: nil,
          "\(CoachText.reps(stuck.map(\.report.index)).capitalizedFirst) slowed down by up to \(worst)% after their first burst of speed\(place): that is your sticking point. \(advice)"
        )
      ]
    }
    return stuck.map { r in
      let dip = CoachText.fixed((r.stickingDipFraction ?? 0) * 100, 0)
      let place = r.report.stickingPointCm.map { ", \(CoachText.cm($0)) above the bottom" } ?? ""
      return make(
        .weakPoint, .info, rep: r.report.index,
        "Rep \(r.report.index) slowed down by \(dip)% after its first burst of speed\(place): that is your sticking point. \(advice)"
      )
    }
  }

  // MARK: explosiveness

  private struct DriveFindings {
    var slowStart = false
    var latePeak = false
    var earlyBrake = false
    var any: Bool { slowStart || latePeak || earlyBrake }

    func advice(_ exercise: Exercise?) -> String {
      let keep = "keep \(Coach.effort(exercise))ing through lockout."
      switch (slowStart || latePeak, earlyBrake) {
      case (true, true): return "Drive hard out of the bottom and " + keep
      case (true, false): return "Drive hard out of the bottom."
      default: return keep.capitalizedFirst
      }
    }
  }

  private static func driveFindings(_ r: RepAnalysis) -> DriveFindings {
    var f = DriveFindings()
    if let ratio = r.driveRatio { f.slowStart = ratio < CoachingThresholds.minimumDriveRatio }
    // With a sticking dip the highest peak is often the second one, near
    // lockout; weak_point already explains that rep.
    if let peak = r.timeToPeakFraction, !isStuck(r) {
      f.latePeak = peak > CoachingThresholds.lateTimeToPeakFraction
    }
    f.earlyBrake = r.propulsiveFraction < CoachingThresholds.minimumPropulsiveFraction
    return f
  }

  private static func explosiveness(_ reps: [RepAnalysis], _ exercise: Exercise?)
    -> [Recommendation]
  {
    let flagged = reps.map { ($0, driveFindings($0)) }.filter { $0.1.any }
    if isSetPattern(flagged: flagged.count, of: reps.count) {
      var all = DriveFindings()
      var clauses: [String] = []
      func clause(_ text: String, _ pick: (DriveFindings) -> Bool) {
        let idx = flagged.filter { pick($0.1) }.map(\.0.report.index)
        if !idx.isEmpty { clauses.append("\(text) on \(CoachText.reps(idx))") }
      }
      clause("came off the bottom slowly", \.slowStart)
      clause("reached top speed late", \.latePeak)
      clause("eased off before lockout", \.earlyBrake)
      for (_, f) in flagged {
        all.slowStart = all.slowStart || f.slowStart
        all.latePeak = all.latePeak || f.latePeak
        all.earlyBrake = all.earlyBrake || f.earlyBrake
      }
      return [
        make(
          .explosiveness, .info, rep: nil,
          "The bar \(CoachText.list(clauses)). \(all.advice(exercise))")
      ]
    }
    return flagged.map { r, f in
      var clauses: [String] = []
      if f.slowStart {
        let quarter = r.quarterVelocityMps
        clauses.append(
          "came off the bottom slowly (\(CoachText.mps(quarter)) a quarter of the way through against \(CoachText.mps(r.report.meanVelocityMps)) on average)"
        )
      }
      if f.latePeak, let peak = r.timeToPeakFraction {
        clauses.append(
          "reached top speed late, \(CoachText.fixed(peak * 100, 0))% of the way through")
      }
      if f.earlyBrake {
        clauses.append(
          "eased off after \(CoachText.fixed(r.propulsiveFraction * 100, 0))% of the lift, letting the bar coast to lockout"
        )
      }
      return make(
        .explosiveness, .info, rep: r.report.index,
        "Rep \(r.report.index) \(CoachText.list(clauses)). \(f.advice(exercise))")
    }
  }

  // MARK: bar_tilt

  private static func tilt(_ r: RepAnalysis) -> Double? {
    let angles = [r.report.maxAbsPitchDeg, r.report.maxAbsRollDeg].compactMap { $0.map(abs) }
    return angles.max()
  }

  private static func barTilt(_ reps: [RepAnalysis], _ exercise: Exercise?) -> [Recommendation] {
    let tilted = reps.compactMap { r in
      tilt(r).flatMap { $0 > CoachingThresholds.barTiltDeg ? (r.report.index, $0) : nil }
    }
    let advice = "Keep it level: grip evenly and \(effort(exercise)) both sides together."
    let severity = { (deg: Double) -> Recommendation.Severity in
      deg > CoachingThresholds.severeBarTiltDeg ? .warning : .info
    }
    if isSetPattern(flagged: tilted.count, of: reps.count),
      let worst = tilted.max(by: { $0.1 < $1.1 })
    {
      return [
        make(
          .barTilt, severity(worst.1), rep: nil,
          "The bar tilted more than \(CoachText.fixed(CoachingThresholds.barTiltDeg, 0))° on \(CoachText.reps(tilted.map(\.0))), up to \(CoachText.deg(worst.1)) on rep \(worst.0). \(advice)"
        )
      ]
    }
    return tilted.map { index, deg in
      make(
        .barTilt, severity(deg), rep: index,
        "The bar tilted \(CoachText.deg(deg)) on rep \(index). \(advice)")
    }
  }

  // MARK: velocity_loss

  private static func velocityLoss(_ reps: [RepAnalysis]) -> [Recommendation] {
    let velocities = reps.map(\.report.meanVelocityMps)
    guard let loss = SetSummarizer.velocityLossPct(meanVelocities: velocities),
      loss > CoachingThresholds.velocityLossCutoffPct,
      let fastestV = velocities.max(),
      let fastest = reps.first(where: { $0.report.meanVelocityMps == fastestV }),
      let last = reps.last
    else { return [] }
    let cutoff = CoachText.fixed(CoachingThresholds.velocityLossCutoffPct, 0)
    let nearFailure = CoachText.fixed(CoachingThresholds.velocityLossNearFailurePct, 0)
    var message =
      "Bar speed fell \(CoachText.fixed(loss, 1))% from your fastest rep (rep \(fastest.report.index), \(CoachText.mps(fastestV))) to your last (rep \(last.report.index), \(CoachText.mps(last.report.meanVelocityMps)))."
    if loss > CoachingThresholds.velocityLossNearFailurePct {
      message +=
        " Past \(nearFailure)% you are close to failure: the last reps add fatigue and blunt your speed for little extra strength."
    } else {
      message += " Past about \(cutoff)%, extra reps add fatigue faster than strength."
    }
    message += " End the set sooner or lighten the load."
    return [make(.velocityLoss, .warning, rep: nil, message)]
  }
}

/// Number and list wording for coaching messages. Formatting is done by hand
/// on rounded integers so that the text is identical on every platform and
/// locale.
enum CoachText {
  static func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return "?" }
    var scale = 1
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(x) * Double(scale)).rounded()
    guard scaled < 1e15 else { return "\(x)" }
    let n = Int(scaled)
    var text = String(n / scale)
    if digits > 0 {
      let fraction = String(n % scale)
      text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return (x < 0 && n != 0 ? "-" : "") + text
  }

  static func cm(_ x: Double, unit: Bool = true) -> String { fixed(x, 1) + (unit ? " cm" : "") }
  static func mps(_ x: Double) -> String { fixed(x, 2) + " m/s" }
  static func deg(_ x: Double) -> String { fixed(x, 1) + "°" }

  /// "a", "a and b", "a, b and c".
  static func list(_ items: [String]) -> String {
    guard let last = items.last else { return "" }
    if items.count == 1 { return last }
    return items.dropLast().joined(separator: ", ") + " and " + last
  }

  /// "rep 3", "reps 2, 4 and 5".
  static func reps(_ indices: [Int]) -> String {
    (indices.count == 1 ? "rep " : "reps ") + list(indices.map(String.init))
  }

  /// Population SD over mean; nil for no values or a zero mean.
  static func coefficientOfVariation(_ xs: [Double]) -> Double? {
    guard !xs.isEmpty else { return nil }
    let mean = xs.reduce(0, +) / Double(xs.count)
    guard mean > 0 else { return nil }
    let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
    return variance.squareRoot() / mean
  }
}

extension String {
  fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
