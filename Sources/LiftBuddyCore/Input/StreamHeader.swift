/// What a recorded stream says about itself in its leading `# key: value`
/// comments (contract §2).
///
/// Known keys are typed; a value that does not parse (`load_kg: heavy`)
/// leaves its field nil rather than failing the stream, since a header is
/// advice and the samples are what matters. Unknown keys are kept, in file
/// order, for tools that show or copy them.
public struct StreamHeader: Equatable, Sendable {
  /// From the `# liftbuddy-stream <n>` marker; nil for a raw capture.
  public var formatVersion: Int?
  /// As written; mapping it to an `Exercise` is the analyzer's business,
  /// because an unknown name must not stop the analysis.
  public var exercise: String?
  /// Nil if absent, negative, or not a plain decimal number.
  public var loadKg: Double?
  public var source: String?
  /// The sonar rate that times bare rows; nil if absent or implausible.
  public var rateHz: Double?
  /// As written (RFC 3339), so that it can be copied out unchanged.
  public var startedAt: String?
  /// `startedAt` in Unix seconds; nil if absent or not RFC 3339.
  public var startedAtUnix: Double?
  /// Keys this version does not know, with their values, in file order.
  public var extra: [(key: String, value: String)]

  /// Rates above this cannot be a sonar (an echo from 4 m takes 23 ms);
  /// the bound keeps a typo from timing a capture in microseconds.
  public static let maxRateHz = 10_000.0

  public init(
    formatVersion: Int? = nil, exercise: String? = nil, loadKg: Double? = nil,
    source: String? = nil,
    rateHz: Double? = nil, startedAt: String? = nil, startedAtUnix: Double? = nil,
    extra: [(key: String, value: String)] = []
  ) {
    self.formatVersion = formatVersion
    self.exercise = exercise
    self.loadKg = loadKg
    self.source = source
    self.rateHz = rateHz
    self.startedAt = startedAt
    self.startedAtUnix = startedAtUnix
    self.extra = extra
  }

  /// Takes in one header value. A key given twice keeps its last value, as
  /// a later line in a hand-edited file is the likelier correction.
  public mutating func set(_ key: String, _ value: String) {
    switch key {
    case "exercise":
      exercise = value
    case "load_kg":
      loadKg = Self.number(value).flatMap { $0 >= 0 ? $0 : nil }
    case "source":
      source = value
    case "rate_hz":
      rateHz = Self.number(value).flatMap { $0 > 0 && $0 <= Self.maxRateHz ? $0 : nil }
    case "started_at":
      startedAt = value
      startedAtUnix = RFC3339Timestamp.unixSeconds(value)
    default:
      extra.append((key: key, value: value))
    }
  }

  private static func number(_ text: String) -> Double? {
    var text = text
    return text.withUTF8 { DecimalNumber.parse(UnsafeRawBufferPointer($0)) }
  }

  // Written out because tuples are not Equatable; keep in step with the fields.
  public static func == (lhs: StreamHeader, rhs: StreamHeader) -> Bool {
    lhs.formatVersion == rhs.formatVersion && lhs.exercise == rhs.exercise
      && lhs.loadKg == rhs.loadKg && lhs.source == rhs.source && lhs.rateHz == rhs.rateHz
      && lhs.startedAt == rhs.startedAt && lhs.startedAtUnix == rhs.startedAtUnix
      && lhs.extra.elementsEqual(rhs.extra, by: { $0.key == $1.key && $0.value == $1.value })
  }
}
