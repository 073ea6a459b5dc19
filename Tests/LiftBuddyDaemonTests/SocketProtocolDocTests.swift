import Foundation
import Logging
import Testing

@testable import LiftBuddyCore
@testable import LiftBuddyDaemon

/// The example session in docs/socket-protocol.md, replayed byte for byte
/// against a real server, so the document cannot drift from the code.
@Suite("Socket protocol document")
struct SocketProtocolDocTests {
  static let document = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("docs/socket-protocol.md")

  /// The lines of the block fenced as ```session.
  static func sessionLines() throws -> [String] {
    let text = try String(contentsOf: document, encoding: .utf8)
    var lines: [String] = []
    var inside = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        if inside { break }
        inside = line == "```session"
        continue
      }
      if inside, line.hasPrefix("C: ") || line.hasPrefix("S: ") { lines.append(String(line)) }
    }
    return lines
  }

  @Test func exampleSessionReplaysByteForByte() async throws {
    let lines = try Self.sessionLines()
    #expect(lines.count >= 10, "the document's example session is missing or short")
    #expect(lines.contains { $0.hasPrefix(#"S: {"class":"lift""#) })
    #expect(lines.contains { $0.hasPrefix(#"S: {"class":"error""#) })

    let daemon = SocketScriptedDaemon()
    let path = SocketTest.temporaryPath()
    var logger = Logger(label: "doc-test")
    logger.logLevel = .error
    let server = SocketServer(
      configuration: SocketConfiguration(path: path), control: daemon, logger: logger)
    daemon.attach(server)
    try await server.start()
    let transcript = try await SocketTest.offPool {
      let client = try SocketTestClient(path: path)
      var seen: [String] = []
      for line in lines {
        if line.hasPrefix("C: ") {
          try client.send(String(line.dropFirst(3)) + "\n")
          seen.append(line)
        } else {
          seen.append("S: " + (try client.line()))
        }
      }
      return seen
    }
    for (expected, actual) in zip(lines, transcript) {
      #expect(actual == expected)
    }
    await server.shutdown(finalStatus: nil)
  }
}

/// The daemon's pipeline as a test double, fed by a replay that plays a whole
/// recorded set the moment it starts: `start_set` publishes the set and its
/// three reps, `end_set` its lift report. Fixed values, so fixed bytes.
final class SocketScriptedDaemon: DaemonControl, @unchecked Sendable {
  private let lock = NSLock()
  private var server: SocketServer?
  private var next: (exercise: Exercise?, loadKg: Double?) = (nil, nil)

  func attach(_ server: SocketServer) { lock.withLock { self.server = server } }

  static let setID = "20261121T180502Z-1"
  static let reps: [(mean: Double, propulsive: Double, peak: Double, rom: Double, loss: Double?)] =
    [
      (0.62, 0.66, 1.04, 61.8, nil), (0.59, 0.63, 0.98, 61.2, 4.8), (0.55, 0.6, 0.91, 60.4, 11.3),
    ]

  func perform(_ command: ControlCommand) async -> String? {
    let (server, next) = lock.withLock { (self.server, self.next) }
    switch command {
    case .setNext(let exercise, let loadKg):
      lock.withLock { self.next = (exercise, loadKg) }
    case .startSet:
      server?.publish(
        .analyzer(
          .setStarted(
            SetStarted(
              setID: Self.setID, setNumber: 1, startS: 4.25, exercise: next.exercise?.rawValue,
              loadKg: next.loadKg))))
      for (i, _) in Self.reps.enumerated() {
        server?.publish(
          .analyzer(
            .rep(
              RepEvent(
                setID: Self.setID, setNumber: 1, exercise: next.exercise?.rawValue,
                loadKg: next.loadKg, rep: rep(i),
                velocityLossPct: Self.reps[i].loss))))
      }
    case .endSet:
      server?.publish(.analyzer(.lift(report(exercise: next.exercise, loadKg: next.loadKg))))
    }
    return nil
  }

  func currentStatus() async -> DaemonStatus {
    DaemonStatus(
      state: .connected, source: "replay:squat-3x100.lbs", message: nil,
      quality: QualityCounts(lines: 412, badLines: 1, spikesRemoved: 2, gaps: 0), t: 14.8,
      reports: .init(written: 1, setAside: 0, pending: 0))
  }

  private func rep(_ i: Int) -> RepReport {
    let r = Self.reps[i]
    let start = 5.5 + 3 * Double(i)
    return RepReport(
      index: i + 1, concentricStartS: start, concentricEndS: start + 0.75, romCm: r.rom,
      meanVelocityMps: r.mean,
      peakVelocityMps: r.peak, meanPropulsiveVelocityMps: r.propulsive, timeToPeakVelocityS: 0.25,
      peakAccelerationMps2: 5.5, eccentricDurationS: 1.25, stickingPointCm: i == 2 ? 18.5 : nil,
      maxAbsPitchDeg: 2.5, maxAbsRollDeg: 1.5)
  }

  private func report(exercise: Exercise?, loadKg: Double?) -> LiftReport {
    LiftReport(
      id: Self.setID, source: "replay:squat-3x100.lbs", exercise: exercise?.rawValue,
      loadKg: loadKg,
      startedAt: "2026-11-21T18:05:06Z", endedAt: "2026-11-21T18:05:16Z", startS: 4.25, endS: 14.5,
      reps: (0..<3).map(rep),
      summary: SetSummary(
        repCount: 3, bestMeanVelocityMps: 0.62, velocityLossPct: 11.3, estimatedOneRepMaxKg: 128.5),
      recommendations: [
        Recommendation(
          code: "weak_point", severity: .info, rep: 3,
          message: "Rep 3 slowed 18.5 cm above the bottom: train that range."),
        Recommendation(
          code: "velocity_loss", severity: .info, rep: nil,
          message: "Velocity loss 11.3 %: well within a strength set."),
      ],
      quality: QualityCounts(lines: 412, badLines: 1, spikesRemoved: 2, gaps: 0))
  }
}
