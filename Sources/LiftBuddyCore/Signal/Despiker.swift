/// Removes what the sonar reports but the bar cannot have done, in two
/// stages: the plausible range, then a track the readings must follow
/// (`TrackGate`), which decides almost every reading at once so that the
/// rep event is not held back.
///
/// The HC-SR04 fails in recognisable ways: 0 for a lost echo, its maximum
/// range (or a firmware's timeout value) when nothing answers, the distance
/// to a foot, a leg or a plate, several such readings in a row.
struct Despiker: Sendable {
  /// HC-SR04 datasheet: 2 cm to 400 cm, and a reading at the limit is the
  /// module's timeout, not a distance. A bar is never higher than the
  /// overhead lockout of a very tall lifter (about 2.6 m), so anything from
  /// 300 cm up is no measurement of it.
  static let plausibleRange = 2.0..<300.0

  private var gate = TrackGate()
  /// The readings' noise (cm), for the gate's confirmations.
  var noiseCm: Double {
    get { gate.noiseCm }
    set { gate.noiseCm = newValue }
  }
  private var outOfRange = 0

  /// Readings removed so far, by every stage.
  var removed: Int { outOfRange + gate.removed }
  /// Whether the clip reads whole centimetres (`TrackGate.readsWholeCm`).
  var readsWholeCm: Bool { gate.readsWholeCm }
  /// When the sonar answered after a run it froze in while the bar moved
  /// (`TrackGate.thawedT`).
  var thawedT: Double { gate.thawedT }

  mutating func push(_ s: TimedHeight, emit: (TimedHeight) -> Void) {
    guard Self.plausibleRange.contains(s.cm) else {
      outOfRange += 1
      gate.noteNoEcho()
      return
    }
    gate.push(s, emit: emit)
  }

  mutating func flush(emit: (TimedHeight) -> Void) {
    gate.flush(emit: emit)
  }
}
