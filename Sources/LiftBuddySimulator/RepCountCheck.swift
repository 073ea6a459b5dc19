/// Scores rep counts where the truth is only "these sets, this many reps
/// each" (real recordings: `../shared/real-data/*/truth.json`). Found sets
/// are aligned with true sets in order, allowing invented and missed sets,
/// so that one extra set at the start does not make every later set wrong.
public enum RepCountCheck {
  public struct Result: Sendable, Equatable {
    public var trueSets = 0
    public var foundSets = 0
    /// True sets aligned with a found set of exactly their count.
    public var exactSets = 0
    /// Reps reported beyond the truth (in aligned sets, and every rep of a
    /// set that was not there).
    public var inventedReps = 0
    public var missedReps = 0

    public init() {}

    public static func + (a: Result, b: Result) -> Result {
      var r = a
      r.trueSets += b.trueSets
      r.foundSets += b.foundSets
      r.exactSets += b.exactSets
      r.inventedReps += b.inventedReps
      r.missedReps += b.missedReps
      return r
    }
  }

  /// The alignment with the most exact sets, then the fewest wrong reps.
  public static func compare(found: [Int], truth: [Int]) -> Result {
    struct Cost: Comparable {
      var exact = 0
      var wrong = 0
      static func < (a: Cost, b: Cost) -> Bool {
        a.exact != b.exact ? a.exact > b.exact : a.wrong < b.wrong
      }
    }
    struct Cell {
      var cost = Cost()
      var result = Result()
    }
    let n = found.count
    let m = truth.count
    var table = [[Cell]](repeating: [Cell](repeating: Cell(), count: m + 1), count: n + 1)
    for i in 0...n {
      for j in 0...m where i > 0 || j > 0 {
        var options: [Cell] = []
        if i > 0 {
          var c = table[i - 1][j]
          c.cost.wrong += found[i - 1]
          c.result.inventedReps += found[i - 1]
          options.append(c)
        }
        if j > 0 {
          var c = table[i][j - 1]
          c.cost.wrong += truth[j - 1]
          c.result.missedReps += truth[j - 1]
          options.append(c)
        }
        if i > 0, j > 0 {
          var c = table[i - 1][j - 1]
          let f = found[i - 1]
          let t = truth[j - 1]
          if f == t {
            c.cost.exact += 1
            c.result.exactSets += 1
          }
          c.cost.wrong += abs(f - t)
          c.result.inventedReps += max(0, f - t)
          c.result.missedReps += max(0, t - f)
          options.append(c)
        }
        table[i][j] = options.min { $0.cost < $1.cost }!
      }
    }
    var result = table[n][m].result
    result.trueSets = m
    result.foundSets = n
    return result
  }
}
