import Foundation
import LiftBuddyDaemon
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Where the built executables are: `$LIFTBUDDY_BIN_DIR`, else the
/// directory this test bundle runs from, else the package's
/// `.build-daemon/debug` or `.build/debug`.
enum Binaries {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static var directory: URL {
    let fm = FileManager.default
    var candidates: [URL] = []
    if let env = ProcessInfo.processInfo.environment["LIFTBUDDY_BIN_DIR"] {
      candidates.append(URL(fileURLWithPath: env))
    }
    // …/debug/LiftBuddyPackageTests.xctest (Linux runs the bundle itself).
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    candidates.append(bundle.deletingLastPathComponent())
    candidates.append(packageRoot.appendingPathComponent(".build-daemon/debug"))
    candidates.append(packageRoot.appendingPathComponent(".build/debug"))
    return candidates.first {
      fm.isExecutableFile(atPath: $0.appendingPathComponent("liftbuddyd").path)
    }
      ?? candidates[candidates.count - 1]
  }

  static var liftbuddyd: String { directory.appendingPathComponent("liftbuddyd").path }
  static var liftbuddy: String { directory.appendingPathComponent("liftbuddy").path }
}

/// A fresh directory under /tmp, removed when the value goes away.
final class ScratchDirectory {
  let path: String

  init() {
    var template = Array("/tmp/liftbuddy-test-XXXXXX".utf8CString)
    path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
  }

  func file(_ name: String) -> String { path + "/" + name }

  deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A child process (the real built binary), its output in files.
final class DaemonChild {
  let process = Process()
  let stdoutPath: String
  let stderrPath: String

  init(
    _ executable: String, _ arguments: [String], in directory: ScratchDirectory,
    name: String = "child", environment extra: [String: String] = [:]
  ) throws {
    stdoutPath = directory.file("\(name).stdout")
    stderrPath = directory.file("\(name).stderr")
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
    var environment = ProcessInfo.processInfo.environment
    // Not under systemd, whatever runs the tests.
    for key in [
      "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY", "RUNTIME_DIRECTORY",
    ] {
      environment[key] = nil
    }
    environment.merge(extra) { $1 }
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    try process.run()
  }

  var pid: pid_t { process.processIdentifier }
  var isRunning: Bool { process.isRunning }
  var stdout: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }
  var stderr: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

  func signal(_ sig: Int32) { kill(pid, sig) }

  /// The exit status, or nil if still running after `timeout` seconds.
  func wait(timeout: Double) async -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning, Date() < deadline { try? await Task.sleep(for: .milliseconds(10)) }
    return process.isRunning ? nil : process.terminationStatus
  }

  /// Expects an exit with `status` within `timeout` seconds. A failure says how the child ended
  /// and the end of its stderr, so that a CI log alone names the cause.
  func expectExit(
    _ status: Int32 = 0, within timeout: Double,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let actual = await wait(timeout: timeout)
    #expect(
      actual == status,
      """
      \(process.executableURL?.lastPathComponent ?? "child") \
      \(actual.map { "exited with status \($0)" } ?? "still running after \(timeout) s"); \
      its stderr ends: \(stderr.suffix(3000))
      """, sourceLocation: sourceLocation)
  }

  /// Waits until `condition` holds, up to `timeout` seconds.
  func waitFor(timeout: Double, _ condition: () async -> Bool) async -> Bool {
    await waitUntil(timeout: timeout, condition)
  }

  deinit {
    if process.isRunning {
      kill(pid, SIGKILL)
      process.waitUntilExit()
    }
  }
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
func waitUntil(timeout: Double, _ condition: () async -> Bool) async -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while Date() < deadline {
    if await condition() { return true }
    try? await Task.sleep(for: .milliseconds(20))
  }
  return await condition()
}

/// The `.json` files in a directory, sorted by name.
func jsonFiles(in directory: String) -> [String] {
  ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
    .filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
}

/// A report file, decoded loosely.
func reportObject(_ path: String) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

func repCount(_ report: [String: Any]) -> Int? {
  (report["summary"] as? [String: Any])?["rep_count"] as? Int
}

/// Makes a directory unwritable for real: `chattr +i` when the tests run as
/// root (root ignores permission bits), else mode 0555.
func setReadOnly(_ path: String, _ readOnly: Bool) throws {
  if geteuid() == 0 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
    p.arguments = [readOnly ? "+i" : "-i", path]
    try p.run()
    p.waitUntilExit()
    if p.terminationStatus != 0 { throw CocoaError(.fileWriteNoPermission) }
  } else {
    guard chmod(path, readOnly ? 0o555 : 0o755) == 0 else {
      throw CocoaError(.fileWriteNoPermission)
    }
  }
}

/// Whether a file can be created in `path` right now.
func isWritable(_ path: String) -> Bool {
  let probe = path + "/.probe-\(getpid())"
  let fd = open(probe, O_CREAT | O_WRONLY | O_EXCL, 0o644)
  guard fd >= 0 else { return false }
  close(fd)
  unlink(probe)
  return true
}
