import ArgumentParser
import Foundation
import LiftBuddyCore
import LiftBuddyDaemon

/// `liftbuddy watch`: a live view of the daemon's socket, one line per rep
/// and a short summary per set, for whoever stands at the bar.
struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Show reps and sets live from a running liftbuddyd.",
    discussion: """
      Connects to the daemon's socket (see docs/socket-protocol.md) and prints
      each rep at lockout (marked "?" while it is provisional; see the
      protocol's "Reps, fast and final"), then as it is confirmed or
      withdrawn, and each finished set with its recommendations. With --json, prints the daemon's objects as they come,
      one JSON object per line. Without --socket, tries
      \(SocketConfiguration.defaultPath), then ./liftbuddy.sock.
      """)

  @Option(help: "The daemon's socket.")
  var socket: String?

  @Flag(help: "Print the raw JSON objects instead of readable lines.")
  var json = false

  @Flag(help: "Also subscribe to live samples (up to 10 per second).")
  var samples = false

  func run() throws {
    let path = socket ?? Self.defaultSocket()
    let client: SocketLineClient
    do {
      client = try SocketLineClient(path: path)
    } catch {
      Self.printError("liftbuddy watch: \(error)")
      throw ExitCode.failure
    }
    var classes: [EventClass] = [.set, .rep, .repProvisional, .repWithdrawn, .lift, .status]
    if samples { classes.append(.sample) }
    try client.send(line: ClientCommand.watch(enable: true, classes: classes).jsonLine())

    var printer = WatchPrinter()
    do {
      while let line = try client.readLine() {
        if json {
          FileHandle.standardOutput.write(Data(line + [UInt8(ascii: "\n")]))
        } else if let text = printer.render(line) {
          FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
      }
    } catch {
      Self.printError("liftbuddy watch: \(error)")
      throw ExitCode.failure
    }
    Self.printError("liftbuddy watch: liftbuddyd closed the connection")
  }

  private static func printError(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
  }

  private static func defaultSocket() -> String {
    let local = "./liftbuddy.sock"
    if access(SocketConfiguration.defaultPath, F_OK) != 0, access(local, F_OK) == 0 { return local }
    return SocketConfiguration.defaultPath
  }
}

/// Turns the daemon's objects into lines for a person. Unknown classes and
/// acknowledgements print nothing: a newer daemon may send more.
private struct WatchPrinter {
  private struct Envelope: Decodable { var `class`: String }

  private struct LiftObject: Decodable { var report: LiftReport }

  private struct StatusObject: Decodable {
    var state: String
    var source: String
    var message: String?
  }

  private struct MessageObject: Decodable { var message: String }

  private struct SampleObject: Decodable {
    var t: Double
    var heightCm: Double?
    var velocityMps: Double?
    enum CodingKeys: String, CodingKey {
      case t
      case heightCm = "height_cm"
      case velocityMps = "velocity_mps"
    }
  }

  /// Set numbers by report id: a lift report does not carry its number.
  private var setNumbers: [String: Int] = [:]

  mutating func render(_ line: [UInt8]) -> String? {
    let data = Data(line)
    let decoder = JSONDecoder()
    guard let envelope = try? decoder.decode(Envelope.self, from: data) else { return nil }
    switch envelope.class {
    case "set":
      guard let set = try? decoder.decode(WireReading.SetStarted.self, from: data) else {
        return nil
      }
      setNumbers[set.setID] = set.set
      return "Set \(set.set) started: \(Self.describe(exercise: set.exercise, loadKg: set.loadKg))"
    case "rep", "rep_provisional":
      guard let rep = try? decoder.decode(WireReading.Rep.self, from: data) else { return nil }
      let r = rep.rep
      let loss = rep.velocityLossPct.map { "loss \(Self.fixed($0, 1)) %" } ?? "loss –"
      let mark = envelope.class == "rep" ? " " : "?"
      return "set \(rep.set)  rep \(r.index)\(mark) mean \(Self.fixed(r.meanVelocityMps, 2)) m/s  "
        + "peak \(Self.fixed(r.peakVelocityMps, 2)) m/s  ROM \(Self.fixed(r.romCm, 1)) cm  \(loss)"
    case "rep_withdrawn":
      guard let w = try? decoder.decode(WireReading.Withdrawn.self, from: data) else { return nil }
      let why =
        switch w.reason {
        case "one_way": "the bar did not come back"
        case "outside_set": "outside the set's bottom and top"
        default: w.reason
        }
      return "set \(w.set)  rep \(w.index)? withdrawn: \(why)"
    case "lift":
      guard let lift = try? decoder.decode(LiftObject.self, from: data) else { return nil }
      return summary(lift.report)
    case "status":
      guard let status = try? decoder.decode(StatusObject.self, from: data) else { return nil }
      return "[\(status.state)] \(status.source)" + (status.message.map { ": \($0)" } ?? "")
    case "error":
      guard let error = try? decoder.decode(MessageObject.self, from: data) else { return nil }
      return "[error] \(error.message)"
    case "sample":
      guard let sample = try? decoder.decode(SampleObject.self, from: data) else { return nil }
      let height = sample.heightCm.map { "\(Self.fixed($0, 1)) cm" } ?? "–"
      let velocity = sample.velocityMps.map { "\(Self.fixed($0, 2)) m/s" } ?? "–"
      return "  t \(Self.fixed(sample.t, 2)) s  height \(height)  velocity \(velocity)"
    default:
      return nil
    }
  }

  private mutating func summary(_ report: LiftReport) -> String {
    let s = report.summary
    var parts = ["\(s.repCount) rep\(s.repCount == 1 ? "" : "s")"]
    if let best = s.bestMeanVelocityMps { parts.append("best \(Self.fixed(best, 2)) m/s") }
    if let loss = s.velocityLossPct { parts.append("loss \(Self.fixed(loss, 1)) %") }
    if let e1rm = s.estimatedOneRepMaxKg { parts.append("e1RM \(Self.fixed(e1rm, 1)) kg") }
    let number = setNumbers.removeValue(forKey: report.id).map { " \($0)" } ?? ""
    var lines = [
      "Set\(number) done: \(Self.describe(exercise: report.exercise, loadKg: report.loadKg)), "
        + parts.joined(separator: ", ")
    ]
    for r in report.recommendations {
      let marker = r.severity == .warning ? "!" : "-"
      lines.append("  \(marker) \(r.message)")
    }
    return lines.joined(separator: "\n")
  }

  private static func describe(exercise: String?, loadKg: Double?) -> String {
    let name = exercise?.replacingOccurrences(of: "_", with: " ") ?? "unknown exercise"
    return name + (loadKg.map { " \(fixed($0, 1)) kg" } ?? "")
  }

  private static func fixed(_ x: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", x)
  }
}
