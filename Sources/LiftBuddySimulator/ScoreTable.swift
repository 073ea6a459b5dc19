/// Renders scores as an aligned plain-text table, one row per label: what
/// `liftbuddy evaluate` prints, with issue 8's measures as its columns.
///
/// - `exact%`: true sets found with exactly their rep count (an invented set
///   counts as one more set got wrong); `no_set`: reports that overlap no
///   true set at all; `+reps`/`-reps`: reps invented and missed; `prec` and
///   `recall`: of reps.
/// - `_mae` mean absolute and `_bias` mean signed errors (found − true) over
///   matched reps: velocities m/s, ROM cm, tilt degrees (max |pitch| and max
///   |roll| over the concentric phase), t0/t1 the concentric start and end s.
/// - `stick%`: sticking points found on reps that have one; `stick_false%`:
///   claimed on reps that have none.
/// - `lat50`/`lat90`: median and 90th percentile seconds from the true
///   lockout to the stream time the final `rep` event came out; `prov50`/
///   `prov90` the same for provisional reps (`-` when none were told).
public enum ScoreTable {
  static let columns = [
    "", "streams", "sets", "exact%", "no_set", "reps", "+reps", "-reps", "prec", "recall",
    "mv_mae", "mv_bias", "pv_mae", "pv_bias", "rom_mae", "tilt_mae", "tilt_bias", "stick%",
    "stick_false%",
    "lat50", "lat90", "prov50", "prov90", "first50", "first90", "t0_bias", "t1_bias",
  ]

  public static func render(_ rows: [(label: String, score: Score)]) -> String {
    var table = [columns]
    for (label, s) in rows {
      table.append([
        label, "\(s.streams)", "\(s.sets)", s.exactSetRate.map { decimal($0 * 100, 1) } ?? "-",
        "\(s.phantomSets)", "\(s.reps)", "\(s.extraReps)", "\(s.missedReps)",
        s.repPrecision.map { decimal($0, 3) } ?? "-", s.repRecall.map { decimal($0, 3) } ?? "-",
        mae(s.meanVelocity, 3), bias(s.meanVelocity, 3), mae(s.peakVelocity, 3),
        bias(s.peakVelocity, 3), mae(s.rom, 2),
        mae(s.tilt, 2), bias(s.tilt, 2), percent(s.stickingFound, of: s.stickingReps),
        percent(s.stickingClaimed, of: s.smoothReps),
        quantile(s.repLatencies, 0.5), quantile(s.repLatencies, 0.9),
        quantile(s.provisionalLatencies, 0.5), quantile(s.provisionalLatencies, 0.9),
        quantile(s.firstEventLatencies, 0.5), quantile(s.firstEventLatencies, 0.9),
        bias(s.concentricStart, 3), bias(s.concentricEnd, 3),
      ])
    }
    return align(table)
  }

  /// Rows of cells as aligned text: the first column left, the others right.
  public static func align(_ table: [[String]]) -> String {
    var widths = [Int](repeating: 0, count: table.map(\.count).max() ?? 0)
    for row in table {
      for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
    }
    return table.map { row in
      row.enumerated().map { i, cell in
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        return i == 0 ? cell + pad : pad + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + "\n"
  }

  private static func bias(_ sum: Score.ErrorSum, _ decimals: Int) -> String {
    sum.bias.map { ($0 > 0 ? "+" : "") + decimal($0, decimals) } ?? "-"
  }

  private static func mae(_ sum: Score.ErrorSum, _ decimals: Int) -> String {
    sum.mean.map { decimal($0, decimals) } ?? "-"
  }

  private static func percent(_ count: Int, of total: Int) -> String {
    total == 0 ? "-" : decimal(Double(count) * 100 / Double(total), 1)
  }

  private static func quantile(_ values: [Double], _ q: Double) -> String {
    Score.quantile(values, q).map { decimal($0, 2) } ?? "-"
  }

  /// Fixed decimals by integer arithmetic, the same bytes on every platform.
  public static func decimal(_ value: Double, _ decimals: Int) -> String {
    FixedDecimal.format(value, decimals: decimals)
  }
}
