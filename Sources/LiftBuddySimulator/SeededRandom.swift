import Foundation

/// SplitMix64: a tiny generator whose whole state is one integer, so a seed
/// names a stream for ever. The standard library's `random(in:using:)`
/// algorithms may change between toolchains, so every draw the simulator
/// makes goes through the helpers below, never through them.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  public init(seed: UInt64) {
    state = seed
  }

  /// A generator for one independent aspect of a stream (trajectory, sonar,
  /// transport…), so that changing how one aspect draws does not reshuffle
  /// the others.
  public init(seed: UInt64, stream: UInt64) {
    var mixer = SeededRandom(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
    state = mixer.next()
  }

  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1), from the top 53 bits.
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1.0p-53
  }

  public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * unit()
  }

  /// Uniform integer in the range (the tiny modulo bias is irrelevant here).
  public mutating func integer(_ range: ClosedRange<Int>) -> Int {
    let span = UInt64(range.upperBound - range.lowerBound + 1)
    return range.lowerBound + Int(next() % span)
  }

  public mutating func chance(_ probability: Double) -> Bool {
    unit() < probability
  }

  public mutating func sign() -> Double {
    chance(0.5) ? 1 : -1
  }

  public mutating func pick<T>(_ choices: [T]) -> T {
    choices[integer(0...(choices.count - 1))]
  }

  /// Standard normal, by Box–Muller (one value per call keeps the state simple).
  public mutating func gaussian() -> Double {
    let u1 = max(unit(), 0x1.0p-53)
    let u2 = unit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
