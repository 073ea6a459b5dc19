/// Every cut-off the coach and the 1RM estimate use, in one place, each with
/// where it comes from. Where no study gives a number, the comment says it is
/// a coaching convention and why that value was picked, so that nobody
/// mistakes a judgement call for a finding.
public enum CoachingThresholds {

  // MARK: Noise control

  /// When a per-rep finding hits this many reps, one set-level message
  /// naming them replaces the per-rep messages. Convention: three messages
  /// saying the same thing is where a list starts to read as nagging.
  public static let setLevelMinimumReps = 3
  /// A finding on more than this share of the reps (and on at least two) is
  /// a pattern of the set, not of one rep, and is reported once for the set.
  /// Convention.
  public static let setLevelRepShare = 0.5

  // MARK: range_of_motion

  /// A rep shorter than this share of the set's longest rep is called short.
  /// Convention: 10 % of a 40–70 cm range is 4–7 cm, several times the
  /// sonar's ~1 cm resolution, so it is a real difference and not noise.
  public static let shortRepRomFraction = 0.90
  /// A rep shorter than this share of the longest is a partial rep: warning.
  /// Convention (a fifth of the range missing would not pass a judge).
  public static let partialRepRomFraction = 0.80
  /// Coefficient of variation (population SD / mean) of the ROM of the reps
  /// that are not short, above which depth is called inconsistent.
  /// Convention: the reps already within 10 % of the longest can reach at
  /// most ~5 %, so 4 % means depth alternates by most of that band.
  public static let romSpreadCoefficientOfVariation = 0.04
  /// Fewer reps than this give no meaningful spread.
  public static let romSpreadMinimumReps = 3

  // MARK: weak_point

  /// Velocity dip after the first peak, as a share of that peak, above which
  /// the rep has a sticking point worth naming. The sticking region itself
  /// is well described (velocity falls after a first peak and recovers;
  /// Kompf & Arandjelović 2016, Sports Med 46:751–762); the 10 % cut-off is a
  /// convention, set well above the ~0.02–0.03 m/s noise of a
  /// sonar-derived velocity at typical peaks of 0.4–1.0 m/s.
  public static let stickingDipFraction = 0.10

  // MARK: explosiveness

  /// Bar velocity at 25 % of the concentric duration over the rep's mean
  /// velocity (`RepAnalysis.driveRatio`), below which the rep left the
  /// bottom slowly. Convention: a symmetric (parabolic) velocity curve
  /// gives 1.125 and a hard drive more; 0.75 means the bar is clearly still
  /// slow a quarter of the way through. Being a ratio, it holds at any load.
  public static let minimumDriveRatio = 0.75
  /// Peak velocity later than this share of the concentric duration, with no
  /// sticking dip to explain it, means the lifter built speed late.
  /// Convention: a symmetric curve peaks at 0.5.
  public static let lateTimeToPeakFraction = 0.80
  /// Propulsive share of the concentric phase below which the lifter eased
  /// off before lockout. Sánchez-Medina et al. 2017 (Sports Med Int Open
  /// 1:E80–E88) measured the propulsive phase at ~82 % of the concentric
  /// duration at 40 % 1RM in the full squat, rising to 100 % at 1RM;
  /// Sánchez-Medina et al. 2010 (Int J Sports Med 31:123–129) found no
  /// braking phase at all above ~76 % 1RM in the bench press. The 0.65
  /// cut-off is a convention below what maximal-intent lifters show even at
  /// light loads, so that unavoidable braking is not flagged.
  public static let minimumPropulsiveFraction = 0.65

  // MARK: bar_tilt

  /// Largest |pitch| or |roll| (degrees) that goes unremarked. Convention:
  /// over the ~1.3 m between a bar's inner collars, 5° puts one end ~11 cm
  /// above the other, which a lifter can see and fix.
  public static let barTiltDeg = 5.0
  /// Tilt above this (degrees) is a warning: one end ~23 cm above the other
  /// loads one side markedly more. Convention.
  public static let severeBarTiltDeg = 10.0

  // MARK: velocity_loss

  /// Velocity loss in the set (fastest rep's mean velocity to the last
  /// rep's, percent) above which the set is called fatiguing: warning.
  /// Pareja-Blanco et al. 2017 (Scand J Med Sci Sports 27:724–735): in the
  /// full squat, stopping sets at 20 % loss gave similar strength gains to
  /// 40 % with ~40 % fewer reps and less fatigue. Velocity loss tracks the
  /// share of the possible reps already done (Sánchez-Medina &
  /// González-Badillo 2011, Med Sci Sports Exerc 43:1725–1734; González-Badillo
  /// et al. 2017, Int J Sports Med 38:217–225), so a high loss also means
  /// few reps in reserve.
  public static let velocityLossCutoffPct = 20.0
  /// Loss above this: the message says the set was close to failure.
  /// Pareja-Blanco et al. 2017: the 40 % group gained more muscle size but
  /// lost type IIX fibres and improved their jump less than the 20 % group.
  public static let velocityLossNearFailurePct = 40.0

  // MARK: estimated 1RM

  /// %1RM from a load–velocity equation is trusted only inside this range.
  /// Convention: above 100 % the equation contradicts the lift just made
  /// (non-maximal intent or a bad velocity); below 40 % the relation is most
  /// individual and a small velocity error moves the estimate a lot.
  public static let loadVelocityPercentRange: ClosedRange<Double> = 40...100
  /// Epley's formula is used only up to this many reps: repetition equations
  /// lose accuracy with more (Reynolds, Gordon & Robergs 2006, J Strength
  /// Cond Res 20:584–592, better from 5RM than from 10RM or 20RM).
  public static let epleyMaximumReps = 10
}
