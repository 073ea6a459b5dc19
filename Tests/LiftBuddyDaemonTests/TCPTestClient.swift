import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Plain blocking TCP for the tests: one HTTP request, or a WebSocket viewer.
final class TCPTestClient {
  let fd: Int32
  private var pending: [UInt8] = []

  init(port: Int) throws {
    fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let rc = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard rc == 0 else { throw POSIXError(.ECONNREFUSED) }
  }

  deinit { close(fd) }

  func send(_ text: String) { send(bytes: Array(text.utf8)) }

  func send(bytes: [UInt8]) {
    _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
  }

  /// A client's frames are masked (RFC 6455 5.3); payloads here are short.
  func sendFrame(opcode: UInt8, payload: [UInt8] = []) {
    let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
    send(
      bytes: [0x80 | opcode, 0x80 | UInt8(payload.count)] + mask
        + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
  }

  /// At least `count` bytes, or fewer at end of stream.
  func read(_ count: Int) throws -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: 65536)
    while pending.count < count {
      let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n == 0 { break }
      guard n > 0 else { throw POSIXError(.ETIMEDOUT) }
      pending += chunk[..<n]
    }
    let out = Array(pending.prefix(count))
    pending.removeFirst(out.count)
    return out
  }

  func readHead() throws -> String {
    var head: [UInt8] = []
    while !head.suffix(4).elementsEqual([13, 10, 13, 10]) {
      let byte = try read(1)
      guard let b = byte.first else { break }
      head.append(b)
    }
    return String(decoding: head, as: UTF8.self)
  }

  static func request(
    port: Int, get path: String? = nil, post: String? = nil, body: String = "",
    headers: [String] = []
  ) throws -> (status: Int, body: String) {
    let c = try TCPTestClient(port: port)
    let method = post == nil ? "GET" : "POST"
    c.send(
      "\(method) \(post ?? path ?? "/") HTTP/1.1\r\nHost: t\r\n"
        + headers.map { $0 + "\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    )
    let head = try c.readHead()
    let status = Int(head.split(separator: " ")[1]) ?? 0
    let rest = try c.read(1 << 20)
    return (status, String(decoding: rest, as: UTF8.self))
  }

  static func webSocket(port: Int, path: String = "/events") throws -> TCPTestClient {
    let c = try TCPTestClient(port: port)
    c.send(
      "GET \(path) HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    let head = try c.readHead()
    guard head.hasPrefix("HTTP/1.1 101") else { throw POSIXError(.EPROTO) }
    return c
  }

  /// The next frame from the server (unmasked): opcode and payload.
  func frame() throws -> (opcode: UInt8, payload: [UInt8]) {
    let h = try read(2)
    guard h.count == 2 else { throw POSIXError(.ECONNRESET) }
    var length = Int(h[1] & 127)
    if length == 126 {
      length = try read(2).reduce(0) { $0 << 8 | Int($1) }
    } else if length == 127 {
      length = try read(8).reduce(0) { $0 << 8 | Int($1) }
    }
    return (h[0] & 15, try read(length))
  }

  func textMessage() throws -> String {
    let f = try frame()
    guard f.opcode == 1 else { throw POSIXError(.EPROTO) }
    return String(decoding: f.payload, as: UTF8.self)
  }

  func closeCode() throws -> Int {
    let f = try frame()
    guard f.opcode == 8, f.payload.count >= 2 else { return -1 }
    return Int(f.payload[0]) << 8 | Int(f.payload[1])
  }
}
