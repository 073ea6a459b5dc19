import DequeModule

/// The recent `a:` samples, so a confirmed rep can look up how far the bar
/// tilted while it moved. Trimmed together with the height buffer.
struct AttitudeLog: Sendable {
  struct Entry: Sendable {
    var t: Double
    var pitch: Double
    var roll: Double
  }
  private var entries: Deque<Entry> = []

  var latest: Entry? { entries.last }

  mutating func append(t: Double, pitch: Double, roll: Double) {
    entries.append(Entry(t: t, pitch: pitch, roll: roll))
  }

  mutating func trim(before t: Double) {
    while let first = entries.first, first.t < t { entries.removeFirst() }
  }

  func maxAbs(in window: ClosedRange<Double>) -> (pitch: Double, roll: Double)? {
    var found = false
    var pitch = 0.0
    var roll = 0.0
    // Entries are in time order; walk back from the newest.
    for e in entries.reversed() {
      if e.t < window.lowerBound { break }
      if e.t > window.upperBound { continue }
      found = true
      pitch = max(pitch, abs(e.pitch))
      roll = max(roll, abs(e.roll))
    }
    return found ? (pitch, roll) : nil
  }
}
