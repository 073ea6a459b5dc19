import Foundation

/// What only the sensor sees, never the bar: a hand or the lifter's body in
/// front of the sonar while the clip is handled, stretches where the HC-SR04
/// hears no echo on every other ping (a soft mat, the bar tilted, the cone
/// grazing a plate), and the speed of sound in the gym's air.
public struct SensorArtifacts: Sendable, Equatable {
  /// A false reading shaped like a raised cosine: `peakCm` added at the
  /// middle of `start…end` (52 → 95 → 52 cm for a hand over the clip).
  public struct Hump: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var peakCm: Double

    func offset(at t: Double) -> Double {
      guard t > start, t < end else { return 0 }
      let u = (t - start) / (end - start)
      return peakCm * (1 - cos(2 * Double.pi * u)) / 2
    }
  }

  public var humps: [Hump] = []
  /// Every other ping in these windows gets no echo.
  public var noEchoWindows: [ClosedRange<Double>] = []
  /// Sonar distances are multiplied by this: the clip turns echo time into
  /// distance with a fixed speed of sound, and the real one differs by up to
  /// a few percent with the air's temperature. 1 for a calibrated sensor.
  public var speedOfSoundScale = 1.0
  /// Spike and spiky-region rates are multiplied by this (echoes off plates
  /// and legs).
  public var echoFactor = 1.0
  /// IMU noise (1 σ, degrees) instead of the clip's own draw.
  public var imuNoiseDeg: ClosedRange<Double>? = nil
  /// Sonar noise (1 σ, cm) instead of the noise level's (a soft floor).
  public var sonarNoiseCm: Double? = nil

  public init() {}

  /// What the sonar measures at `t` for a bar at `heightCm`.
  func apparentHeight(_ heightCm: Double, at t: Double) -> Double {
    var h = heightCm
    for hump in humps where hump.start < t && hump.end > t { h += hump.offset(at: t) }
    return h
  }

  func isNoEcho(at t: Double) -> Bool {
    noEchoWindows.contains { $0.contains(t) }
  }
}
