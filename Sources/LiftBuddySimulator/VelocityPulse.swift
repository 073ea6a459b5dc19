import Foundation

/// One smooth movement of the bar: velocity rises from zero along a
/// half-cosine, may hold a plateau, and falls back to zero along another
/// half-cosine. Velocity and acceleration are continuous everywhere, so sums
/// of pulses give a trajectory whose turnarounds (the truth's concentric
/// start and end) are well defined. The rise and fall fractions set the
/// peak-to-mean ratio: 1 / (1 − (rise + fall) / 2), from 1 (a box) to 2
/// (a raised cosine).
///
/// The fall can also end abruptly: a quarter cosine reaches zero velocity
/// with the deceleration still high, as a bar does when the joints lock
/// out, instead of creeping to a stop. `smoothStop` blends the two (1: raised
/// cosine, zero deceleration at the end; 0: quarter cosine).
public struct VelocityPulse: Sendable, Equatable {
  public var start: Double
  public var duration: Double
  /// Net height change in centimetres (negative: down).
  public var displacementCm: Double
  /// Fraction of the duration spent accelerating (0 < rise, rise + fall ≤ 1).
  public var rise: Double
  public var fall: Double
  public var smoothStop: Double

  public init(
    start: Double, duration: Double, displacementCm: Double, rise: Double, fall: Double,
    smoothStop: Double = 1
  ) {
    precondition(duration > 0 && rise > 0 && fall > 0 && rise + fall <= 1.000_001)
    precondition((0...1).contains(smoothStop))
    self.start = start
    self.duration = duration
    self.displacementCm = displacementCm
    self.rise = rise
    self.fall = fall
    self.smoothStop = smoothStop
  }

  /// Mean of the unit-peak shape: the reciprocal of the peak-to-mean ratio.
  public var meanOfShape: Double {
    rise / 2 + (1 - rise - fall) + fall * Self.fallArea(smoothStop)
  }

  /// Area under the unit fall (per unit of its length) for a blend.
  static func fallArea(_ smoothStop: Double) -> Double {
    smoothStop / 2 + (1 - smoothStop) * 2 / Double.pi
  }

  public var end: Double { start + duration }

  /// Plateau velocity in cm/s (the pulse's peak).
  public var peakCmPerS: Double {
    displacementCm / (duration * meanOfShape)
  }

  /// Velocity in cm/s at time `t`.
  public func velocity(at t: Double) -> Double {
    let u = (t - start) / duration
    guard u > 0, u < 1 else { return 0 }
    return peakCmPerS * shape(u)
  }

  /// Height gained since the pulse's start, in centimetres.
  public func displacement(at t: Double) -> Double {
    let u = (t - start) / duration
    if u <= 0 { return 0 }
    if u >= 1 { return displacementCm }
    return peakCmPerS * duration * integral(u)
  }

  private func shape(_ u: Double) -> Double {
    if u < rise { return (1 - cos(Double.pi * u / rise)) / 2 }
    if u > 1 - fall {
      let x = (u - (1 - fall)) / fall
      return smoothStop * (1 + cos(Double.pi * x)) / 2 + (1 - smoothStop) * cos(Double.pi / 2 * x)
    }
    return 1
  }

  /// ∫₀ᵘ shape, in units of the duration.
  private func integral(_ u: Double) -> Double {
    if u < rise { return (u - rise / Double.pi * sin(Double.pi * u / rise)) / 2 }
    let afterRise = rise / 2
    if u <= 1 - fall { return afterRise + (u - rise) }
    let w = u - (1 - fall)
    let smooth = (w + fall / Double.pi * sin(Double.pi * w / fall)) / 2
    let abrupt = 2 * fall / Double.pi * sin(Double.pi / 2 * w / fall)
    return afterRise + (1 - fall - rise) + smoothStop * smooth + (1 - smoothStop) * abrupt
  }
}
