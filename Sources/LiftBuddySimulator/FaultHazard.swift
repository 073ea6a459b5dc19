/// Where bad sonar readings cluster. The HC-SR04's cone is about 30° wide:
/// with the bar low (the bottom of a squat or a bench, a bar on the floor)
/// it takes in knees, shins and plates, and while the lifter walks the bar
/// out or in, feet step through it. Spikes are therefore likelier exactly
/// where the analysis must find the bottom turnaround. The multiplier is
/// normalised over the session, so the noise level's rates still hold on
/// average.
struct FaultHazard {
  /// How much likelier a fault is in a hazardous stretch.
  static let hazardFactor = 2.5
  /// The bottom part of a rep's range, as a share of its ROM.
  static let lowBandShare = 0.3
  /// Grid on which the session's hazardous share is estimated.
  static let estimateStepS = 0.01

  private let lowBandTopCm: Double
  private let walks: [ClosedRange<Double>]
  private let inside: Double
  private let outside: Double

  init(plan: SessionPlan) {
    let reps = plan.sets.flatMap(\.reps)
    if reps.isEmpty {
      lowBandTopCm = -.infinity
    } else {
      let bottoms = reps.map { plan.trajectory.height(at: $0.concentricPulseStart) }
      let tops = reps.map { plan.trajectory.height(at: $0.concentricPulseEnd) }
      let bottom = bottoms.reduce(0, +) / Double(reps.count)
      let top = tops.reduce(0, +) / Double(reps.count)
      lowBandTopCm = bottom + Self.lowBandShare * (top - bottom)
    }
    walks = plan.nonReps.filter { $0.kind == .walkOut || $0.kind == .walkIn }.map {
      $0.startS...$0.endS
    }
    var hazardous = 0
    var all = 0
    var t = 0.0
    while t < plan.durationS {
      if Self.isHazardous(
        t: t, height: plan.trajectory.height(at: t), band: lowBandTopCm, walks: walks)
      {
        hazardous += 1
      }
      all += 1
      t += Self.estimateStepS
    }
    let share = all == 0 ? 0 : Double(hazardous) / Double(all)
    let mean = share * Self.hazardFactor + (1 - share)
    inside = Self.hazardFactor / mean
    outside = 1 / mean
  }

  /// Factor on the spike and spiky-region rates for a sample at `t`.
  func multiplier(at t: Double, heightCm: Double) -> Double {
    Self.isHazardous(t: t, height: heightCm, band: lowBandTopCm, walks: walks) ? inside : outside
  }

  private static func isHazardous(
    t: Double, height: Double, band: Double, walks: [ClosedRange<Double>]
  )
    -> Bool
  {
    height <= band || walks.contains { $0.contains(t) }
  }
}
