/// The longest stretch of a span in which the sonar was not heard: a
/// frozen run, no echoes, readings taken out as echoes. What the measurer
/// knows of a phase's timing inside one is only what the readings either
/// side of it say.
struct Silence: Equatable, Sendable {
  /// Seconds, the span's own ends counted as edges.
  var lengthS = 0.0
  /// The first reading at or after its end; nil when none was read after
  /// it.
  var after: TimedHeight? = nil

  /// The longest silence of `span` among `readings` (in time order). Walked
  /// from the newest reading back, as the spans asked about are recent
  /// ones in a buffer of up to a minute.
  static func longest<Readings: BidirectionalCollection<TimedHeight>>(
    in readings: Readings, over span: ClosedRange<Double>
  ) -> Silence {
    var later = span.upperBound
    var laterReading: TimedHeight? = nil
    var longest = Silence()
    for r in readings.reversed() {
      if r.t >= span.upperBound {
        laterReading = r
        continue
      }
      let length = later - max(r.t, span.lowerBound)
      if length > longest.lengthS { longest = Silence(lengthS: length, after: laterReading) }
      if r.t <= span.lowerBound { return longest }
      later = r.t
      laterReading = r
    }
    let length = later - span.lowerBound
    return length > longest.lengthS ? Silence(lengthS: length, after: laterReading) : longest
  }
}
