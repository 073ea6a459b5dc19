import LiftBuddyCore

/// Prints analyzer events for `analyze`: JSON Lines of lift reports, or a
/// table a person can read.
struct ReportPrinter {
  let format: AnalyzeCommand.Format
  private var sets = 0

  init(format: AnalyzeCommand.Format) {
    self.format = format
  }

  mutating func print(_ events: [AnalyzerEvent]) {
    for case .lift(let report) in events {
      sets += 1
      switch format {
      case .json: Swift.print(report.jsonLine())
      case .table: Swift.print(Self.table(report))
      }
    }
  }

  func finish(source: String, totals: QualityCounts) {
    guard format == .table else { return }
    Swift.print(
      "\(source): \(sets) set(s); \(totals.lines) lines, \(totals.badLines) bad, "
        + "\(totals.spikesRemoved) spikes removed, \(totals.gaps) gaps")
  }

  static func table(_ r: LiftReport) -> String {
    var out: [String] = []
    let what = [r.exercise ?? "unknown exercise", r.loadKg.map { "\(fmt($0, 1)) kg" }]
      .compactMap { $0 }.joined(separator: ", ")
    out.append(
      "Set \(r.id) — \(what) — \(r.summary.repCount) reps, \(fmt(r.startS, 1))–\(fmt(r.endS, 1)) s")
    out.append(
      " rep  start_s    end_s   rom_cm  mean_m/s  peak_m/s  mpv_m/s  ecc_s  stick_cm  pitch°  roll°"
    )
    for rep in r.reps {
      out.append(
        [
          pad("\(rep.index)", 4), pad(fmt(rep.concentricStartS, 2), 8),
          pad(fmt(rep.concentricEndS, 2), 8), pad(fmt(rep.romCm, 1), 8),
          pad(fmt(rep.meanVelocityMps, 3), 9), pad(fmt(rep.peakVelocityMps, 3), 9),
          pad(fmt(rep.meanPropulsiveVelocityMps, 3), 8),
          pad(rep.eccentricDurationS.map { fmt($0, 2) } ?? "-", 6),
          pad(rep.stickingPointCm.map { fmt($0, 1) } ?? "-", 9),
          pad(rep.maxAbsPitchDeg.map { fmt($0, 1) } ?? "-", 7),
          pad(rep.maxAbsRollDeg.map { fmt($0, 1) } ?? "-", 6),
        ].joined(separator: " "))
    }
    var summary =
      "best mean velocity \(r.summary.bestMeanVelocityMps.map { fmt($0, 3) } ?? "-") m/s"
    if let loss = r.summary.velocityLossPct { summary += ", velocity loss \(fmt(loss, 1)) %" }
    if let e1rm = r.summary.estimatedOneRepMaxKg { summary += ", estimated 1RM \(fmt(e1rm, 1)) kg" }
    out.append(" " + summary)
    for rec in r.recommendations {
      out.append(
        " [\(rec.severity.rawValue)] \(rec.code)\(rec.rep.map { " (rep \($0))" } ?? ""): \(rec.message)"
      )
    }
    return out.joined(separator: "\n")
  }

  static func fmt(_ x: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let v = (x * scale).rounded() / scale
    var s = String(v)
    if let dot = s.firstIndex(of: ".") {
      let decimals = s.distance(from: dot, to: s.endIndex) - 1
      if decimals < digits { s += String(repeating: "0", count: digits - decimals) }
    } else if digits > 0 {
      s += "." + String(repeating: "0", count: digits)
    }
    return s
  }

  static func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
  }
}
