import LiftBuddyCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// Answers one plain HTTP request per connection, then closes it: the page's
/// files, the history, a report, and the commands. (Keep-alive would save a
/// handshake per file on a LAN and cost a rule about idle connections.)
///
/// | request | answer |
/// | --- | --- |
/// | `GET /`, `GET /<file>` | the page's files |
/// | `GET /room` | the coach's room view (docs/mqtt.md), when it is on |
/// | `GET /api/history` | every set in the report directory, oldest first |
/// | `GET /api/reports/<id>` | that report file's bytes |
/// | `POST /api/command` | a socket-protocol command (`X-Pairing-Code` to steer) |
/// | `GET /events` + WebSocket upgrade | the live events (see `ViewerHandler`) |
/// | `GET /room/events` + WebSocket upgrade | the room view's `rack` objects (`CoachFeed`) |
final class WebRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  static let name = "liftbuddy-web-request"

  /// What every connection shares with the server.
  struct Environment: Sendable {
    var site: StaticSite
    var history: HistoryIndex
    var commands: WebCommandGate
    var maxBodyBytes: Int
    var threadPool: NIOThreadPool
    var logger: Logger
    /// The page at `/`: the lifter's, or the room view in `liftbuddy coach`.
    var home = "/index.html"
    /// `/room` is the room view's page, when the coach's view is on.
    var roomView = false
  }

  private let environment: Environment
  private var head: HTTPRequestHead?
  private var body = ByteBuffer()
  private var responded = false

  init(environment: Environment) { self.environment = environment }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !responded else { return }
    switch unwrapInboundIn(data) {
    case .head(let h):
      head = h
    case .body(var chunk):
      guard body.readableBytes + chunk.readableBytes <= environment.maxBodyBytes else {
        respond(
          context, .payloadTooLarge,
          json: WireEncoder.error("body longer than \(environment.maxBodyBytes) bytes"))
        return
      }
      body.writeBuffer(&chunk)
    case .end:
      guard let head else { return }
      route(context, head)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    environment.logger.debug("web request failed; closing", metadata: ["error": "\(error)"])
    context.close(promise: nil)
  }

  private func route(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
    let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
    switch (head.method, path) {
    case (.POST, "/api/command"):
      command(context, head)
    case (.GET, "/api/history"), (.HEAD, "/api/history"):
      offLoop(context, head) { [environment] in
        let entries = environment.history.listing()
        return ByteBuffer(bytes: ReportJSON.data(entries))
      }
    case (.GET, _) where path.hasPrefix("/api/reports/"),
      (.HEAD, _) where path.hasPrefix("/api/reports/"):
      let id = String(path.dropFirst("/api/reports/".count))
      offLoop(context, head) { [environment] in
        environment.history.report(id: id).map { ByteBuffer(bytes: $0) }
      }
    case (.GET, _), (.HEAD, _):
      let page =
        path == "/"
        ? environment.home : (path == "/room" && environment.roomView ? "/room.html" : path)
      guard let file = environment.site.file(at: page) else {
        respond(context, .notFound, text: "not found\n", headOnly: head.method == .HEAD)
        return
      }
      respond(
        context, .ok, body: file.body, contentType: file.contentType,
        headOnly: head.method == .HEAD)
    case (_, "/api/command"):
      respond(context, .methodNotAllowed, text: "use POST\n", extra: [("allow", "POST")])
    default:
      respond(
        context, .methodNotAllowed, text: "method not allowed\n", extra: [("allow", "GET, HEAD")])
    }
  }

  /// Runs blocking file reads on the thread pool, answers on the loop.
  private func offLoop(
    _ context: ChannelHandlerContext, _ head: HTTPRequestHead,
    _ work: @escaping @Sendable () -> ByteBuffer?
  ) {
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let headOnly = head.method == .HEAD
    environment.threadPool.runIfActive(eventLoop: context.eventLoop, work).whenComplete { result in
      let (handler, context) = bound.value
      switch result {
      case .success(let body?):
        handler.respond(
          context, .ok, body: body, contentType: "application/json", headOnly: headOnly)
      case .success(nil):
        handler.respond(context, .notFound, text: "not found\n", headOnly: headOnly)
      case .failure:
        handler.respond(context, .serviceUnavailable, text: "shutting down\n")
      }
    }
  }

  private func command(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
    let line = Array(body.readableBytesView)
    let code = head.headers.first(name: "x-pairing-code")
    let gate = environment.commands
    let promise = context.eventLoop.makePromise(of: WebCommandGate.Answer.self)
    promise.completeWithTask { await gate.answer(line, pairingCode: code) }
    let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    promise.futureResult.whenSuccess { answer in
      let (handler, context) = bound.value
      handler.respond(context, answer.status, json: answer.body)
    }
  }

  private func respond(
    _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, json: ByteBuffer
  ) {
    respond(context, status, body: json, contentType: "application/json")
  }

  private func respond(
    _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, text: String,
    headOnly: Bool = false, extra: [(String, String)] = []
  ) {
    respond(
      context, status, body: ByteBuffer(string: text), contentType: "text/plain; charset=utf-8",
      headOnly: headOnly, extra: extra)
  }

  private func respond(
    _ context: ChannelHandlerContext, _ status: HTTPResponseStatus, body: ByteBuffer,
    contentType: String, headOnly: Bool = false, extra: [(String, String)] = []
  ) {
    guard !responded, context.channel.isActive else { return }
    responded = true
    var headers = HTTPHeaders([
      ("content-type", contentType), ("content-length", String(body.readableBytes)),
      ("connection", "close"), ("cache-control", "no-cache"),
      ("x-content-type-options", "nosniff"),
      ("content-security-policy", "default-src 'self'; img-src 'self' data:"),
    ])
    headers.add(contentsOf: extra)
    let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
    context.write(wrapOutboundOut(.head(head)), promise: nil)
    if !headOnly { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }
}
