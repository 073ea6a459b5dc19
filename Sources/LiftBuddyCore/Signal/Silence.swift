/// The longest stretch of a span in which the sonar was not heard: a
/// frozen run, no echoes, readings taken out as echoes. What the measurer
/// knows of a phase's timing inside one is only what the readings either
/// side of it say.
struct Silence: Equatable, Sendable {
  /// Seconds, the span's own ends counted as edges.
  var lengthS = 0.0
  /// The first reading at or after its end; nil when the readings stop
  /// inside the span.
  var after: TimedHeight? = nil

  /// The longest silence of `span` among `readings` (in time order).
  static func longest(in readings: [TimedHeight], over span: ClosedRange<Double>) -> Silence {
    var last = span.lowerBound
    var longest = Silence()
    for r in readings where r.t > span.lowerBound {
      let length = min(r.t, span.upperBound) - last
      if length > longest.lengthS { longest = Silence(lengthS: length, after: r) }
      if r.t >= span.upperBound { return longest }
      last = r.t
    }
    let length = span.upperBound - last
    return length > longest.lengthS ? Silence(lengthS: length, after: nil) : longest
  }
}
