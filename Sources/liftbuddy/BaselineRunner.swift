import Foundation
import LiftBuddySimulator

/// Runs the plain NumPy/SciPy script (scripts/baseline.py) over files and
/// reads its JSON Lines back: one object per set, with the stream's `file`.
enum BaselineRunner {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// The sets the script reported, by file name.
  static func run(python: String, script: String, files: [String]) throws -> [String: [FoundSet]] {
    guard !files.isEmpty else { return [:] }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python, script] + files
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "\(script) exited with status \(process.terminationStatus)")
    }
    struct Row: Decodable {
      var file: String
      var set: FoundSet
      init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        file = try c.decode(String.self, forKey: .file)
        set = try FoundSet(from: decoder)
      }
      enum CodingKeys: String, CodingKey { case file }
    }
    var sets: [String: [FoundSet]] = [:]
    let decoder = JSONDecoder()
    for line in data.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
      let row = try decoder.decode(Row.self, from: Data(line))
      sets[row.file, default: []].append(row.set)
    }
    return sets
  }
}
