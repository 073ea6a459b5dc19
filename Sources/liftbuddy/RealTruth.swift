import Foundation

/// `truth.json` of a directory of real recordings (../shared/real-data):
/// for each file, its exercise and the rep count of each set, either as
/// numbers or as objects with a `reps` count (times, where given, are not
/// needed to compare counts).
enum RealTruth {
  struct Malformed: Error, CustomStringConvertible {
    var description: String
  }

  static func read(_ data: Data) throws -> [String: [Int]] {
    guard let top = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw Malformed(description: "truth.json is not an object of files")
    }
    var counts: [String: [Int]] = [:]
    for (file, value) in top {
      guard let entry = value as? [String: Any], let sets = entry["sets"] as? [Any] else {
        throw Malformed(description: "truth.json: \(file) has no sets")
      }
      counts[file] = try sets.map { set in
        if let n = set as? Int { return n }
        if let object = set as? [String: Any], let n = object["reps"] as? Int { return n }
        throw Malformed(description: "truth.json: \(file): a set is neither a count nor {reps}")
      }
    }
    return counts
  }

  /// The stream without its `# exercise:` header line.
  static func withoutExercise(_ bytes: [UInt8]) -> [UInt8] {
    let marker = Array("# exercise:".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var start = 0
    while start < bytes.count {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
      let line = bytes[start..<min(end + 1, bytes.count)]
      if !line.starts(with: marker) { out.append(contentsOf: line) }
      start = end + 1
    }
    return out
  }
}
