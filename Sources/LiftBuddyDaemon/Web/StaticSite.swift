import NIOCore
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// The page's own files, read into memory once at start.
///
/// A request is answered only by an exact match on a path read here, so no
/// URL can reach outside the folder: `../`, `%2e%2e`, absolute paths and
/// symlinks (skipped while reading) are simply not in the table. The files
/// are tens of kilobytes; keeping them in memory also keeps disk reads off
/// the event loop.
struct StaticSite: Sendable {
  struct File: Sendable {
    var body: ByteBuffer
    var contentType: String
  }

  private(set) var files: [String: File] = [:]
  /// Bounds on what is read, so a wrong `http_root` cannot fill memory.
  static let maxFileBytes = 512 * 1024
  static let maxTotalBytes = 2 * 1024 * 1024

  static let contentTypes: [String: String] = [
    "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
    "js": "text/javascript; charset=utf-8", "svg": "image/svg+xml", "png": "image/png",
    "json": "application/json", "ico": "image/x-icon", "webmanifest": "application/manifest+json",
  ]

  /// Reads `root` (one level of subfolders at most); problems go to `skipped`.
  init(root: String?, skipped: inout [String]) {
    guard let root else { return }
    var total = 0
    read(directory: root, prefix: "", depth: 0, total: &total, skipped: &skipped)
  }

  func file(at urlPath: String) -> File? {
    files[urlPath == "/" ? "/index.html" : urlPath]
  }

  private mutating func read(
    directory: String, prefix: String, depth: Int, total: inout Int, skipped: inout [String]
  ) {
    guard let dir = opendir(directory) else {
      skipped.append("\(directory): cannot open (\(String(cString: strerror(errno))))")
      return
    }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if !name.hasPrefix(".") { names.append(name) }
    }
    for name in names.sorted() {
      let path = directory + "/" + name
      var info = stat()
      guard lstat(path, &info) == 0 else { continue }
      switch info.st_mode & S_IFMT {
      case S_IFDIR where depth < 1:
        read(
          directory: path, prefix: prefix + "/" + name, depth: depth + 1, total: &total,
          skipped: &skipped)
      case S_IFREG:
        let ext = name.split(separator: ".").last.map(String.init) ?? ""
        guard let type = Self.contentTypes[ext] else { continue }
        guard Int(info.st_size) <= Self.maxFileBytes,
          total + Int(info.st_size) <= Self.maxTotalBytes
        else {
          skipped.append("\(path): too large")
          continue
        }
        guard let bytes = Self.readNoFollow(path) else {
          skipped.append("\(path): cannot read")
          continue
        }
        total += bytes.count
        files[prefix + "/" + name] = File(body: ByteBuffer(bytes: bytes), contentType: type)
      default:
        skipped.append("\(path): not a regular file; skipped")
      }
    }
  }

  /// Reads a whole file, refusing a symlink swapped in since `lstat`.
  static func readNoFollow(_ path: String, limit: Int = maxFileBytes) -> [UInt8]? {
    guard
      let fd = try? FileDescriptor.open(
        FilePath(path), .readOnly, options: [.noFollow, .closeOnExec])
    else { return nil }
    defer { try? fd.close() }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 16 * 1024)
    while true {
      guard let n = try? chunk.withUnsafeMutableBytes({ try fd.read(into: $0) }) else {
        return nil
      }
      if n == 0 { return bytes }
      bytes.append(contentsOf: chunk[..<n])
      if bytes.count > limit { return nil }
    }
  }
}
