/// The bar's true, noise-free height over time: a resting height plus a sum
/// of velocity pulses. Everything the sensors report and everything the
/// truth file says is derived from this one function of time.
public struct BarTrajectory: Sendable {
  public let baseHeightCm: Double
  public let pulses: [VelocityPulse]
  /// Sum of the displacements of `pulses[0..<i]`.
  private let cumulative: [Double]
  /// Latest end among `pulses[0...i]`: lets a lookup stop walking back as
  /// soon as no earlier pulse can still be moving.
  private let latestEnd: [Double]

  public init(baseHeightCm: Double, pulses: [VelocityPulse]) {
    self.baseHeightCm = baseHeightCm
    let sorted = pulses.sorted { $0.start < $1.start }
    self.pulses = sorted
    var sums = [0.0]
    var ends: [Double] = []
    for p in sorted {
      sums.append(sums[sums.count - 1] + p.displacementCm)
      ends.append(max(ends.last ?? -.infinity, p.end))
    }
    cumulative = sums
    latestEnd = ends
  }

  /// Height in centimetres at `t`.
  public func height(at t: Double) -> Double {
    let k = startedCount(at: t)
    var h = baseHeightCm + cumulative[k]
    var j = k - 1
    while j >= 0, latestEnd[j] > t {
      let p = pulses[j]
      if p.end > t { h -= p.displacementCm - p.displacement(at: t) }
      j -= 1
    }
    return h
  }

  /// Vertical velocity in cm/s at `t` (positive: up).
  public func velocity(at t: Double) -> Double {
    var v = 0.0
    var j = startedCount(at: t) - 1
    while j >= 0, latestEnd[j] > t {
      v += pulses[j].velocity(at: t)
      j -= 1
    }
    return v
  }

  /// When the last movement ends.
  public var lastMovementEnd: Double { latestEnd.last ?? 0 }

  /// Number of pulses that started strictly before `t`.
  private func startedCount(at t: Double) -> Int {
    var lo = 0
    var hi = pulses.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if pulses[mid].start < t { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}
