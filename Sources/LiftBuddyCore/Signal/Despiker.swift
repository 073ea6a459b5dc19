/// Removes what the sonar reports but the bar cannot have done, in three
/// stages, each its own type: the sensor's range, stuck values, and a
/// centred median test (single spikes and spiky regions). Stuck values go
/// first: a wrong value repeated for more than half the median's window
/// would otherwise become the median and push the good readings out.
///
/// The HC-SR04 fails in recognisable ways: 0 for a lost echo, 400+ when
/// nothing answers, the distance to a foot or a plate, several such readings
/// in a row, and a value that sticks while the bar moves.
struct Despiker: Sendable {
  /// HC-SR04 datasheet: 2 cm to 400 cm. Outside that it is no measurement.
  static let validRange = 2.0...400.0

  /// Two passes: inside a spiky region longer than half the window the
  /// first pass still removes the readings at its edges, and the second,
  /// over what is left, sees a majority of good readings again.
  private var median = MedianOutlierTest()
  private var secondMedian = MedianOutlierTest()
  private var scratch2: [TimedHeight] = []
  private var stuck = StuckValueFilter()
  private var outOfRange = 0
  private var scratch: [TimedHeight] = []

  /// Readings removed so far, by every stage.
  var removed: Int { outOfRange + median.removed + secondMedian.removed + stuck.removed }

  init() {
    scratch.reserveCapacity(16)
    scratch2.reserveCapacity(16)
  }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    guard Self.validRange.contains(s.cm) else {
      outOfRange += 1
      return
    }
    var unstuck = scratch
    scratch = []
    unstuck.removeAll(keepingCapacity: true)
    stuck.push(s) { unstuck.append($0) }
    medians(unstuck, emit: emit)
    scratch = unstuck
  }

  /// Both median passes over readings the stuck filter let through.
  private mutating func medians(_ readings: [TimedHeight], emit: (TimedHeight) -> Void) {
    var first = scratch2
    scratch2 = []
    first.removeAll(keepingCapacity: true)
    for r in readings { median.push(r) { first.append($0) } }
    for r in first { secondMedian.push(r, emit: emit) }
    scratch2 = first
  }

  mutating func flush(emit: (TimedHeight) -> Void) {
    var unstuck: [TimedHeight] = []
    stuck.flush { unstuck.append($0) }
    medians(unstuck, emit: emit)
    var first: [TimedHeight] = []
    median.flush { first.append($0) }
    for r in first { secondMedian.push(r, emit: emit) }
    secondMedian.flush(emit: emit)
  }
}
