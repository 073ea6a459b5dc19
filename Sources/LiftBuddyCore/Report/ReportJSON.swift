import Foundation

/// The one encoding of reports, shared by `analyze`, the JSON files and the
/// socket, so that a replay's files and `analyze`'s output are the same bytes.
/// Sorted keys make the bytes independent of encoder internals.
public enum ReportJSON {
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  /// Compact JSON without a trailing newline.
  public static func data<T: Encodable>(_ value: T) -> Data {
    // Encoding our own value types cannot fail: no non-conforming floats
    // reach a report (the metrics reject NaN and infinity).
    (try? encoder().encode(value)) ?? Data("{}".utf8)
  }
}

extension LiftReport {
  /// One JSON Lines record, without the trailing newline.
  public func jsonLine() -> String {
    String(decoding: ReportJSON.data(self), as: UTF8.self)
  }
}
