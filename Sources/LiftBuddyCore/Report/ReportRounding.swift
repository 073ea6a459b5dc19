/// Precision of each kind of number in a report. The sonar resolves about a
/// centimetre at 15–40 Hz, so more digits would only print noise; fixed
/// precision also keeps reports byte-identical across platforms.
enum ReportRounding {
  static func seconds(_ x: Double) -> Double { round(x, 3) }
  static func metresPerSecond(_ x: Double) -> Double { round(x, 3) }
  static func centimetres(_ x: Double) -> Double { round(x, 1) }
  static func degrees(_ x: Double) -> Double { round(x, 1) }
  static func metresPerSecondSquared(_ x: Double) -> Double { round(x, 2) }
  static func percent(_ x: Double) -> Double { round(x, 1) }
  static func kilograms(_ x: Double) -> Double { round(x, 1) }

  static func round(_ x: Double, _ digits: Int) -> Double {
    guard x.isFinite else { return 0 }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (x * scale).rounded() / scale
    return r == 0 ? 0 : r  // no "-0" in reports
  }
}
