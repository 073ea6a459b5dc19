/// Renders scores as an aligned plain-text table, one row per label: what
/// `liftbuddy evaluate` prints and what goes into benchmark notes. `+x`/`-x`
/// are extra and missed sets or reps; `_mae` mean absolute errors over
/// matched reps (m/s, cm, s); `_bias` mean signed errors (found − true).
public enum ScoreTable {
  static let columns = [
    "", "streams", "sets", "exact%", "+sets", "-sets", "reps", "+reps", "-reps",
    "mv_mae", "pv_mae", "rom_mae", "t0_mae", "t1_mae", "mv_bias", "pv_bias", "rom_bias", "t0_bias",
    "t1_bias",
  ]

  public static func render(_ rows: [(label: String, score: Score)]) -> String {
    var table = [columns]
    for (label, s) in rows {
      table.append([
        label, "\(s.streams)", "\(s.sets)", s.exactSetRate.map { decimal($0 * 100, 1) } ?? "-",
        "\(s.extraSets)", "\(s.missedSets)", "\(s.reps)", "\(s.extraReps)", "\(s.missedReps)",
        mae(s.meanVelocity, 3), mae(s.peakVelocity, 3), mae(s.rom, 2), mae(s.concentricStart, 3),
        mae(s.concentricEnd, 3), bias(s.meanVelocity, 3), bias(s.peakVelocity, 3), bias(s.rom, 2),
        bias(s.concentricStart, 3), bias(s.concentricEnd, 3),
      ])
    }
    var widths = [Int](repeating: 0, count: columns.count)
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

  static func decimal(_ value: Double, _ decimals: Int) -> String {
    FixedDecimal.format(value, decimals: decimals)
  }
}
