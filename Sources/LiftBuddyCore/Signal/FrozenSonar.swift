/// A sonar frozen on one reading, told as its repeats arrive.
///
/// An HC-SR04 that misses its echoes may have its clip print the last
/// distance again, reading after reading, for a second or more while the
/// bar moves on (a lock-up the clip does not notice). Offline the measurer
/// drops such runs (`StuckReadings`); online, before this, the smoother and
/// the turn finder took them for the bar standing still: a rep's drive
/// frozen halfway read as a bar parked, then lifted again, and the rise was
/// split in two (blind simulator 7000104: 82.5 cm for 1.1 s, then 113.6 cm
/// for 1.3 s, through one squat). From the `StuckReadings.frozenRun`-th
/// reading of one value with a fraction of a centimetre, on a sonar whose
/// noise is `StuckReadings.frozenNoiseCm` or more (six readings in one
/// millimetre bin: about one chance in 8,000 for a bar really standing
/// there), the repeats are no reading at all: the analyzer hears silence
/// until the sonar answers again, and counts it as a gap. A whole-cm
/// clip's repeats are a resting bar as often as not, and stay; a run of
/// them longer than the sonar's noise leaves one value by chance is told
/// (`runIsUnlikely`), so that the turn finder takes it for no park.
/// Dropped as silence instead, such runs cost reps where a bar stood at
/// lockout or on the floor read quieter than the stream's noise (a run of
/// 37 cm through a deadlift's descent lost its single's return: 35
/// independent looked-at streams worse, 57 better).
struct FrozenSonar: Sendable {
  private var value = Double.nan
  private var repeats = 0
  /// Whether the last reading's run is longer than a resting bar read
  /// with the sonar's noise repeats one value by chance
  /// (`StuckReadings.frozenByChance`), whatever the clip's resolution.
  private(set) var runIsUnlikely = false

  /// Whether `reading` is a frozen sonar's repeat, to be left out.
  mutating func isRepeat(_ reading: TimedHeight, noiseCm: Double) -> Bool {
    if reading.cm == value {
      repeats += 1
    } else {
      value = reading.cm
      repeats = 1
    }
    runIsUnlikely = StuckReadings.frozenByChance(runLength: repeats, noiseCm: noiseCm)
    return repeats >= StuckReadings.frozenRun && reading.cm != reading.cm.rounded()
      && noiseCm >= StuckReadings.frozenNoiseCm
  }
}
