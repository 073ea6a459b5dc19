import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// Lift reports not yet acknowledged by the broker, one file each in
/// `<output dir>/mqtt-queue/`, so that a daemon restarted while the broker
/// was away still sends them, in order, when it is back.
///
/// Written as the report files are (`DirectoryHandle`: an exclusive
/// temporary file, fsync, `renameat`, fsync of the directory; never through
/// a symlink), named by a sequence number (`000000000042.json`) so that the
/// order survives a restart, and removed when the broker has acknowledged
/// the report and its retained copy on `last_lift` (`MQTTPublisher`).
/// A report acknowledged just before a crash may go out twice: the
/// coach's side drops duplicates by report id. Bounded: past `capacity`
/// files a report is not queued on disk (its report file is there).
///
/// Confined to the MQTT sink's thread, like `MQTTPublisher`.
final class MQTTSpool {
  static let directoryName = "mqtt-queue"
  /// A report is a few KB; anything much larger in here is not ours.
  static let maxFileBytes = 1 << 20

  let directory: DirectoryHandle
  let capacity: Int
  private var next: Int
  private(set) var count: Int

  /// Opens (creating it if needed) the queue's directory beside the
  /// reports, and removes temporary files a killed run left.
  init(reportDirectory: String, capacity: Int) throws(Errno) {
    directory = try DirectoryHandle(
      path: reportDirectory + "/" + Self.directoryName, create: true)
    self.capacity = max(1, capacity)
    directory.removeStale(where: Self.isTemporaryName)
    let names = directory.regularFiles(where: Self.isEntryName)
    count = names.count
    next = (names.compactMap { Int($0.prefix(12)) }.max() ?? 0) + 1
  }

  /// The reports an earlier run left, oldest first, with their file names;
  /// a file that cannot be read is named in `unreadable`.
  func load() -> (entries: [(name: String, payload: [UInt8])], unreadable: [String]) {
    var entries: [(name: String, payload: [UInt8])] = []
    var unreadable: [String] = []
    for name in directory.regularFiles(where: Self.isEntryName) {
      do {
        entries.append((name, try directory.read(name, limit: Self.maxFileBytes)))
      } catch {
        unreadable.append("\(name) (\(error))")
      }
    }
    return (entries, unreadable)
  }

  /// Queues a report's bytes; returns its file's name, or nil when the
  /// queue is full.
  func add(_ payload: [UInt8]) throws(Errno) -> String? {
    guard count < capacity else { return nil }
    let name = String(repeating: "0", count: max(0, 12 - String(next).count)) + "\(next).json"
    let (temp, fd) = try directory.createExclusive(
      prefix: "." + name + ".tmp-", permissions: [.ownerReadWrite, .groupRead])
    do {
      try fd.closeAfter {
        _ = try payload.withUnsafeBytes { try fd.writeAll($0) }
        guard fsync(fd.rawValue) == 0 else { throw Errno(rawValue: errno) }
      }
      try directory.rename(temp, to: name)
    } catch {
      directory.remove(temp)
      throw error as? Errno ?? .ioError
    }
    try directory.sync()
    next += 1
    count += 1
    return name
  }

  func remove(_ name: String) {
    directory.remove(name)
    count = max(0, count - 1)
  }

  static func isEntryName(_ name: String) -> Bool {
    name.utf8.count == 17 && name.hasSuffix(".json") && name.prefix(12).allSatisfy(\.isASCII)
      && name.prefix(12).allSatisfy(\.isNumber)
  }

  static func isTemporaryName(_ name: String) -> Bool {
    guard name.hasPrefix("."), let marker = name.range(of: ".json.tmp-") else { return false }
    return isEntryName(
      String(name[name.index(after: name.startIndex)..<marker.lowerBound]) + ".json")
  }
}
