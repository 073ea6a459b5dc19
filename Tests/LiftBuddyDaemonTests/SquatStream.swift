import Foundation
import LiftBuddyDaemon

/// A synthetic clip stream: the bar still at 140 cm, then sets of squat
/// reps (a 50 cm cosine down-and-up in 2.4 s), sonar and IMU lines at 40 Hz
/// each. Clean enough that any working analyzer counts every rep.
struct SquatStream: Sendable {
  struct Row: Sendable {
    var t: Double
    var line: String
  }

  var rows: [Row] = []
  var duration: Double = 0
  let rate = 40.0

  /// Appends `seconds` of a still bar.
  mutating func still(_ seconds: Double) { move(seconds) { _ in 140 } }

  /// Appends `count` reps.
  mutating func reps(_ count: Int, seconds: Double = 2.4) {
    for _ in 0..<count {
      move(seconds) { phase in 140 - 25 * (1 - cos(2 * Double.pi * phase)) }
    }
  }

  private mutating func move(_ seconds: Double, height: (Double) -> Double) {
    let start = duration
    let n = Int((seconds * rate).rounded())
    for i in 0..<n {
      let t = start + Double(i) / rate
      rows.append(Row(t: t, line: "s:\(Int(height(Double(i) / Double(n)).rounded()))"))
      rows.append(Row(t: t + 0.005, line: "a:1:0"))
    }
    duration = start + Double(n) / rate
  }

  /// The recorded-stream file (contract §2).
  func fileText(
    exercise: String? = "squat", loadKg: Double? = 100, startedAt: String? = "2026-11-21T04:00:00Z"
  )
    -> String
  {
    var text = "# liftbuddy-stream 1\n# source: serial:/dev/ttyUSB0\n"
    if let startedAt { text += "# started_at: \(startedAt)\n" }
    if let exercise { text += "# exercise: \(exercise)\n" }
    if let loadKg { text += "# load_kg: \(loadKg)\n" }
    for row in rows { text += String(format: "%.3f", row.t) + " " + row.line + "\n" }
    return text
  }

  func write(to path: String, exercise: String? = "squat", loadKg: Double? = 100) throws {
    try fileText(exercise: exercise, loadKg: loadKg).write(
      toFile: path, atomically: true, encoding: .utf8)
  }
}

/// Writes a stream's lines into a pseudo-terminal at their recorded pace,
/// as a clip on a USB cable would.
struct PacedWriter: Sendable {
  let pty: PseudoTerminal

  /// Writes `rows` starting now; returns when the last one is written or
  /// the task is cancelled.
  func play(_ rows: ArraySlice<SquatStream.Row>) async {
    guard let t0 = rows.first?.t else { return }
    let start = ContinuousClock.now
    var i = rows.startIndex
    while i < rows.endIndex {
      let due = start + .seconds(rows[i].t - t0)
      do { try await Task.sleep(until: due, clock: .continuous) } catch { return }
      var bytes: [UInt8] = []
      // Everything due by now goes in one write.
      while i < rows.endIndex, start + .seconds(rows[i].t - t0) <= ContinuousClock.now {
        bytes += Array(rows[i].line.utf8) + [10]
        i += 1
      }
      try? pty.write(bytes)
    }
  }
}
