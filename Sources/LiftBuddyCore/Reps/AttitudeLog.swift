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

  /// The IMU's own noise (0.2–1° per reading at 20–100 Hz) would push a
  /// maximum of raw readings up by a degree or more; the bar's tilt changes
  /// over tenths of a second. So the maximum is taken over a centred mean of
  /// this width: it keeps a 0.5 s tilt episode's peak within 2 % and cuts a
  /// 20 Hz reading's noise by √5.
  static let smoothingS = 0.25

  /// The share of the readings in `window` tilted more than `deg` either
  /// way, nil without readings. A clip turned in a hand stays turned
  /// for the whole move; a few bad IMU lines in a rep are a small share.
  func tiltedShare(in window: ClosedRange<Double>, overDeg deg: Double) -> Double? {
    var n = 0
    var tilted = 0
    for e in entries.reversed() {
      if e.t < window.lowerBound { break }
      guard e.t <= window.upperBound else { continue }
      n += 1
      if abs(e.pitch) > deg || abs(e.roll) > deg { tilted += 1 }
    }
    return n == 0 ? nil : Double(tilted) / Double(n)
  }

  /// The largest |pitch| and |roll| of the smoothed attitude in `window`.
  func maxAbs(in window: ClosedRange<Double>) -> (pitch: Double, roll: Double)? {
    let half = Self.smoothingS / 2
    // Entries are in time order: find the first one the means can use.
    var first = entries.endIndex
    var i = entries.endIndex
    while i > entries.startIndex {
      let j = entries.index(before: i)
      if entries[j].t < window.lowerBound - half { break }
      first = j
      i = j
    }
    var lo = first
    var hi = first
    var sumPitch = 0.0
    var sumRoll = 0.0
    var found = false
    var pitch = 0.0
    var roll = 0.0
    var k = first
    while k < entries.endIndex, entries[k].t <= window.upperBound {
      let center = entries[k].t
      while hi < entries.endIndex, entries[hi].t <= center + half {
        sumPitch += entries[hi].pitch
        sumRoll += entries[hi].roll
        hi += 1
      }
      while entries[lo].t < center - half {
        sumPitch -= entries[lo].pitch
        sumRoll -= entries[lo].roll
        lo += 1
      }
      if center >= window.lowerBound {
        let n = Double(hi - lo)
        found = true
        pitch = max(pitch, abs(sumPitch / n))
        roll = max(roll, abs(sumRoll / n))
      }
      k += 1
    }
    return found ? (pitch, roll) : nil
  }
}
