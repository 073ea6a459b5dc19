import Foundation

/// Where a stream's truth lives and how it is written: beside the stream,
/// `name.lbs` → `name.truth.json`, as stable pretty JSON.
public enum TruthFile {
  public static func path(forStream stream: String) -> String {
    let base = stream.hasSuffix(".lbs") ? String(stream.dropLast(4)) : stream
    return base + ".truth.json"
  }

  public static func encode(_ truth: Truth) throws -> Data {
    let encoder = JSONEncoder()
    // Sorted keys: dictionary-backed encoders may otherwise order keys per
    // process, and a seed must give the same bytes every time.
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    var data = try encoder.encode(truth)
    data.append(UInt8(ascii: "\n"))
    return data
  }

  public static func decode(_ data: Data) throws -> Truth {
    try JSONDecoder().decode(Truth.self, from: data)
  }
}
