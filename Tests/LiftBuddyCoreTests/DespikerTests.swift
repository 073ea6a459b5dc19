import Testing

@testable import LiftBuddyCore

@Suite struct DespikerTests {
  func run(_ values: [Double], rate: Double = 20) -> (kept: [TimedHeight], removed: Int) {
    var d = Despiker()
    var kept: [TimedHeight] = []
    for (i, v) in values.enumerated() {
      d.push(TimedHeight(t: Double(i) / rate, cm: v)) { kept.append($0) }
    }
    d.flush { kept.append($0) }
    return (kept, d.removed)
  }

  /// A bar at rest reading 100 ± 1 cm.
  func rest(_ n: Int) -> [Double] { (0..<n).map { 100 + Double($0 % 3) - 1 } }

  @Test func outOfRangeReadingsGo() {
    var v = rest(40)
    v[10] = 0
    v[20] = 450
    let r = run(v)
    #expect(r.removed == 2)
    #expect(r.kept.count == 38)
    #expect(r.kept.allSatisfy { abs($0.cm - 100) <= 1 })
  }

  @Test func singleSpikesAndSpikyRegionsGo() {
    var v = rest(80)
    v[10] = 37
    for (i, bad) in [23.0, 180, 61, 12, 150, 44].enumerated() { v[40 + i] = bad }
    let r = run(v)
    #expect(r.removed == 7)
    #expect(r.kept.allSatisfy { abs($0.cm - 100) <= 1 })
  }

  @Test func motionAndTurnaroundsPassUntouched() {
    // A squat-like bottom: down at 1.5 m/s, turn with 10 m/s², up again;
    // from 15 Hz, the coarsest clip rate, where a median window is longest.
    for rate in [15.0, 20.0, 40.0] {
      var v: [Double] = []
      var n = 0
      while Double(n) / rate < 2 {
        let t = abs(Double(n) / rate - 1)
        let cm = t <= 0.15 ? 500 * t * t : 11.25 + 150 * (t - 0.15)
        v.append((60 + cm).rounded())
        n += 1
      }
      let r = run(v, rate: rate)
      #expect(r.removed == 0, "rate \(rate)")
      #expect(r.kept.count == v.count)
    }
  }

  @Test func stuckValueWhileMovingGoesButRestStays() {
    // Rising 2 cm per sample; the sensor sticks at 130 for 6 readings.
    var v = (0..<40).map { 100 + 2 * Double($0) }
    for i in 16..<22 { v[i] = v[15] }
    let r = run(v)
    #expect(r.removed == 6)
    #expect(!r.kept.contains { $0.t > 15.5 / 20 && $0.t < 21.5 / 20 })
    // At rest the same centimetre for two seconds is the bar.
    let still = run([Double](repeating: 88, count: 40))
    #expect(still.removed == 0)
    #expect(still.kept.count == 40)
  }

  @Test func aWrongValueStuckLongerThanHalfTheWindowGoes() {
    // Racked at 138; the sonar reports 103 six times in a row.
    var v = [Double](repeating: 138, count: 60)
    for i in 30..<36 { v[i] = 103 }
    let r = run(v)
    // Every wrong reading goes; a few resting readings beside the run may go
    // with them (the run of 138s also ends in a jump), which costs nothing.
    #expect(r.kept.allSatisfy { $0.cm == 138 })
    #expect(r.removed >= 6 && r.removed <= 6 + StuckValueFilter.minRepeats + 2)
  }
}
