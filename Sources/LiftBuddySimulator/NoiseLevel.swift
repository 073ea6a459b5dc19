/// How hostile the sensor and the wire are. Each level fixes the sonar's
/// Gaussian noise and the rates of the faults a real HC-SR04 and a real
/// serial/BLE link produce; `clean` has noise but no faults, so that a
/// failure there is the analysis's own and not the input's.
public enum NoiseLevel: String, Sendable, CaseIterable, Codable {
  case clean
  case typical
  case dirty

  /// Per-sample (or per-line) probabilities of each fault.
  public struct FaultRates: Sendable, Equatable {
    /// One bad sonar sample: 0, a no-echo 400+ value, or a foot or plate.
    public var spike: Double
    /// Start of a run of 2–8 consecutive bad samples (a sock, a shoelace).
    public var spikyRegion: Double
    /// Start of a run where the clip repeats its last value while the bar moves.
    public var stuck: Double
    /// Start of a 0.1–0.6 s stretch with no `s:` line at all.
    public var dropout: Double
    /// A garbage line inserted before a line (binary noise, truncation, NaN…).
    public var garbage: Double

    public static let none = FaultRates(spike: 0, spikyRegion: 0, stuck: 0, dropout: 0, garbage: 0)
  }

  /// Sonar noise in centimetres: the HC-SR04 is good to a few millimetres on
  /// a hard floor, much worse on carpet or rubber mats.
  public var sonarSigmaCm: Double {
    switch self {
    case .clean: 0.2
    case .typical: 0.5
    case .dirty: 1.0
    }
  }

  public var faultRates: FaultRates {
    switch self {
    case .clean: .none
    case .typical:
      FaultRates(spike: 0.005, spikyRegion: 0.001, stuck: 0.001, dropout: 0.0007, garbage: 0)
    case .dirty:
      FaultRates(spike: 0.02, spikyRegion: 0.005, stuck: 0.004, dropout: 0.002, garbage: 0.004)
    }
  }
}
