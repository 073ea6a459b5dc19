/// Removes what the sonar reports but the bar cannot have done, in three
/// stages, each its own type: the sensor's range, a centred median test
/// (single spikes and spiky regions), and stuck values.
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
    var first = scratch
    scratch = []
    first.removeAll(keepingCapacity: true)
    median.push(s) { first.append($0) }
    var second = scratch2
    scratch2 = []
    second.removeAll(keepingCapacity: true)
    for p in first { secondMedian.push(p) { second.append($0) } }
    for p in second { stuck.push(p, emit: emit) }
    scratch = first
    scratch2 = second
  }

  mutating func flush(emit: (TimedHeight) -> Void) {
    var first: [TimedHeight] = []
    median.flush { first.append($0) }
    var second: [TimedHeight] = []
    for p in first { secondMedian.push(p) { second.append($0) } }
    secondMedian.flush { second.append($0) }
    for p in second { stuck.push(p, emit: emit) }
    stuck.flush(emit: emit)
  }
}
