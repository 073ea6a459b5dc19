import Foundation
import LiftBuddyCore
import Logging
import NIOConcurrencyHelpers

#if canImport(Glibc)
  import Glibc
#endif

/// The history page's data, read from the report directory: the files stay
/// the record, this only remembers what it has parsed (by name, size and
/// modification time) so a request re-reads only new or changed files.
final class HistoryIndex: Sendable {
  /// One set, as the history page needs it: enough for sets by day, the
  /// load-velocity profile and e1RM over time; the full report is one
  /// `report(id:)` away.
  struct Entry: Codable, Sendable, Equatable {
    var id: String
    var startedAt: String
    var exercise: String?
    var loadKg: Double?
    var repCount: Int
    var bestMeanVelocityMps: Double?
    var velocityLossPct: Double?
    var estimatedOneRepMaxKg: Double?
    var meanVelocitiesMps: [Double]

    enum CodingKeys: String, CodingKey {
      case id, exercise
      case startedAt = "started_at"
      case loadKg = "load_kg"
      case repCount = "rep_count"
      case bestMeanVelocityMps = "best_mean_velocity_mps"
      case velocityLossPct = "velocity_loss_pct"
      case estimatedOneRepMaxKg = "estimated_one_rep_max_kg"
      case meanVelocitiesMps = "mean_velocities_mps"
    }

    func encode(to encoder: any Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encode(id, forKey: .id)
      try c.encode(startedAt, forKey: .startedAt)
      try c.encodeOrNull(exercise, forKey: .exercise)
      try c.encodeOrNull(loadKg, forKey: .loadKg)
      try c.encode(repCount, forKey: .repCount)
      try c.encodeOrNull(bestMeanVelocityMps, forKey: .bestMeanVelocityMps)
      try c.encodeOrNull(velocityLossPct, forKey: .velocityLossPct)
      try c.encodeOrNull(estimatedOneRepMaxKg, forKey: .estimatedOneRepMaxKg)
      try c.encode(meanVelocitiesMps, forKey: .meanVelocitiesMps)
    }
  }

  /// A report replaced atomically (a new inode) or in place (a new
  /// modification time) is read again.
  private struct Stamp: Equatable {
    var inode: UInt64
    var size: Int
    var mtimeNs: Int
  }

  /// The newest sets listed; older files stay on disk, unlisted.
  static let maxEntries = 2000
  static let maxReportBytes = 1024 * 1024

  let directory: String
  private let logger: Logger
  private let cache = NIOLockedValueBox([String: (stamp: Stamp, entry: Entry?)]())
  /// Files that could not be parsed, counted for the log.
  private let rejected = NIOLockedValueBox(0)

  init(directory: String, logger: Logger = Logger(label: "liftbuddyd")) {
    self.directory = directory
    self.logger = logger
  }

  var rejectedCount: Int { rejected.withLockedValue { $0 } }

  /// Every readable report, oldest first, as a JSON array. Blocking: call
  /// off the event loop.
  func listing() -> [Entry] {
    var seen: [String: Stamp] = [:]
    if let dir = opendir(directory) {
      defer { closedir(dir) }
      while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
          String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        guard Self.isReportFileName(name) else { continue }
        var info = stat()
        guard lstat(directory + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
          continue
        }
        seen[name] = Stamp(
          inode: UInt64(info.st_ino), size: Int(info.st_size),
          mtimeNs: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
      }
    }
    // Only the newest files are read: report names begin with the set's
    // start time, so the cache stays bounded however many files pile up.
    if seen.count > Self.maxEntries {
      let keep = Set(seen.keys.sorted().suffix(Self.maxEntries))
      seen = seen.filter { keep.contains($0.key) }
    }
    let known = cache.withLockedValue { $0 }
    var updated = known.filter { seen[$0.key] != nil }
    for (name, stamp) in seen where known[name]?.stamp != stamp {
      let entry = parse(name)
      if entry == nil {
        rejected.withLockedValue { $0 += 1 }
        logger.warning("history: \(directory)/\(name) is not a readable lift report; not listed")
      }
      updated[name] = (stamp, entry)
    }
    cache.withLockedValue { $0 = updated }
    let entries = updated.values.compactMap(\.entry).sorted {
      ($0.startedAt, $0.id) < ($1.startedAt, $1.id)
    }
    return Array(entries.suffix(Self.maxEntries))
  }

  /// A report file's exact bytes, for a well-formed id only. Blocking.
  func report(id: String) -> [UInt8]? {
    guard Self.isReportID(id) else { return nil }
    return StaticSite.readNoFollow(directory + "/" + id + ".json", limit: Self.maxReportBytes)
  }

  private func parse(_ name: String) -> Entry? {
    guard let bytes = StaticSite.readNoFollow(directory + "/" + name, limit: Self.maxReportBytes),
      let report = try? JSONDecoder().decode(LiftReport.self, from: Data(bytes))
    else { return nil }
    return Entry(
      id: report.id, startedAt: report.startedAt, exercise: report.exercise, loadKg: report.loadKg,
      repCount: report.summary.repCount,
      bestMeanVelocityMps: report.summary.bestMeanVelocityMps,
      velocityLossPct: report.summary.velocityLossPct,
      estimatedOneRepMaxKg: report.summary.estimatedOneRepMaxKg,
      meanVelocitiesMps: report.reps.map(\.meanVelocityMps))
  }

  /// A report's file is named by `ReportFileWriter.fileName(for:)`; an id
  /// that name would change (a slash, a percent sign, a leading dot) cannot
  /// name a report, so it never reaches the file system.
  static func isReportID(_ id: String) -> Bool {
    (1...200).contains(id.utf8.count) && ReportFileWriter.fileName(for: id) == id + ".json"
  }

  static func isReportFileName(_ name: String) -> Bool {
    name.hasSuffix(".json") && isReportID(String(name.dropLast(5)))
  }
}
