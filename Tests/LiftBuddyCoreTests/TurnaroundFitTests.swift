import Testing

@testable import LiftBuddyCore

/// The end fit searches a grid of turnaround times: it must place a clean
/// turnaround where it is, and end on any guess it is handed.
@Suite struct TurnaroundFitTests {
  /// Rest at 60 cm until 2 s, then a drive at 5 m/s² (20 Hz readings).
  static let drive: [TimedHeight] = (0..<40).map { i in
    let t = Double(i) * 0.05
    let d = max(0, t - 1.0)
    return TimedHeight(t: t, cm: 60 + 0.5 * 500 * d * d)
  }

  @Test func aDriveOutOfRestIsPlacedWhereItStarts() throws {
    let near = try #require(
      TurnaroundFit.fit(Self.drive, in: 0.6...1.5, guess: 1.02, bottom: true))
    #expect(abs(near.t - 1.0) < 0.003)
    #expect(abs(near.cm - 60) < 0.1)
    let anywhere = try #require(
      TurnaroundFit.fit(Self.drive, in: 0.6...1.5, guess: nil, bottom: true))
    #expect(abs(anywhere.t - 1.0) < 0.003)
  }

  /// A measurer's guess once came from a stall at 4e-16 m/s: t = −2.5e14 s,
  /// where adding the grid's 2 ms does not change a Double, and the fit
  /// (and with it `analyze` and the daemon) spun for ever.
  @Test(.timeLimit(.minutes(1)))
  func aGuessFarFromTheReadingsPlacesNothingAndEnds() {
    for guess in [-251_055_575_157_403.88, 1e300, -1e300, 50.0] {
      #expect(TurnaroundFit.fit(Self.drive, in: 0.6...1.5, guess: guess, bottom: true) == nil)
    }
  }
}
