#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a file in fixed chunks, so `analyze` holds no whole stream in memory.
enum FileChunks {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// 256 KiB: large enough that read(2) costs nothing per line.
  static let chunkBytes = 256 * 1024

  static func read(path: String, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw Failure(description: errorText(errno)) }
    defer { close(fd) }
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let n = Glibc.read(fd, buffer.baseAddress, chunkBytes)
      if n < 0 {
        if errno == EINTR { continue }
        throw Failure(description: errorText(errno))
      }
      if n == 0 { return }
      try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
    }
  }

  static func errorText(_ code: Int32) -> String {
    guard let s = strerror(code) else { return "error \(code)" }
    return String(cString: s)
  }

  static func printError(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  }
}
