import Foundation
import LiftBuddyCore

/// What the executable does when it is not built as a fuzzer: replay a
/// corpus (so that every crash libFuzzer ever found stays a regression test
/// in plain CI builds), measure the input stage, or write a stream to
/// measure it on.
enum PlainMode {
  static let usage = """
    usage: liftbuddy-fuzz [--target=core|command] PATH...   replay corpus files or directories
           liftbuddy-fuzz --bench FILE [live|replay|core] [--chunk BYTES]
                                                              input-stage throughput on a stream
           liftbuddy-fuzz --generate FILE [MEGABYTES] [--raw] write a synthetic stream (timed, or bare lines)

    """

  /// Returns the process's exit status.
  static func run(_ arguments: [String]) -> Int32 {
    switch arguments.first {
    case "--bench" where (2...5).contains(arguments.count):
      var options = Array(arguments.dropFirst(2))
      var chunkSize = Bench.defaultChunkSize
      if let flag = options.firstIndex(of: "--chunk") {
        guard flag + 1 < options.count, let size = Int(options[flag + 1]), size > 0 else {
          return fail(usage)
        }
        chunkSize = size
        options.removeSubrange(flag...(flag + 1))
      }
      var stages = Bench.Stage.allCases
      if let name = options.first {
        guard options.count == 1, let stage = Bench.Stage(rawValue: name) else {
          return fail(usage)
        }
        stages = [stage]
      }
      return Bench.run(path: arguments[1], stages: stages, chunkSize: chunkSize)
    case "--generate" where (2...4).contains(arguments.count):
      let raw = arguments.last == "--raw"
      let rest = arguments.dropFirst(2).filter { $0 != "--raw" }
      let megabytes = rest.first.map { Int($0) } ?? StreamGenerator.defaultMegabytes
      guard let megabytes, megabytes > 0, rest.count <= 1 else { return fail(usage) }
      return StreamGenerator.write(path: arguments[1], megabytes: megabytes, timed: !raw)
    case nil, "-h", "--help":
      print(usage, terminator: "")
      return arguments.isEmpty ? 2 : 0
    default:
      return replay(arguments)
    }
  }

  /// Runs every file under `paths` through the selected target; a crash
  /// ends the process, so reaching the end means the corpus passed.
  private static func replay(_ paths: [String]) -> Int32 {
    let target = FuzzTarget.selected
    var files = 0
    for path in paths {
      guard let inputs = filesUnder(path) else {
        return fail("liftbuddy-fuzz: cannot read \(path)\n")
      }
      for file in inputs {
        guard let data = FileManager.default.contents(atPath: file) else {
          return fail("liftbuddy-fuzz: cannot read \(file)\n")
        }
        data.withUnsafeBytes { target.run($0) }
        files += 1
      }
    }
    print("liftbuddy-fuzz: \(target.rawValue): \(files) inputs replayed, no crash")
    return 0
  }

  /// The regular files at or under `path`, sorted so runs are repeatable.
  private static func filesUnder(_ path: String) -> [String]? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return nil
    }
    guard isDirectory.boolValue else { return [path] }
    guard let enumerator = FileManager.default.enumerator(atPath: path) else { return nil }
    var files: [String] = []
    for case let relative as String in enumerator {
      let full = (path as NSString).appendingPathComponent(relative)
      var childIsDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: full, isDirectory: &childIsDirectory),
        !childIsDirectory.boolValue
      {
        files.append(full)
      }
    }
    return files.sorted()
  }

  static func fail(_ message: String) -> Int32 {
    FileHandle.standardError.write(Data(message.utf8))
    return 2
  }
}
