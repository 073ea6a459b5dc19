import NIOCore

/// First in an HTTP connection's pipeline: bounds what a client may send
/// before it is answered (head and body together) and how long it may take,
/// so a client that trickles bytes or sends megabytes of headers holds a
/// connection slot for seconds and a few kilobytes at most. Removed when the
/// connection becomes a live page (WebSocket), which sends nothing.
final class RequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  static let name = "liftbuddy-request-guard"

  private let maxBytes: Int
  private let timeout: TimeAmount
  private var received = 0
  private var deadline: Scheduled<Void>?
  private var answered = false

  init(maxBytes: Int, timeout: TimeAmount) {
    self.maxBytes = maxBytes
    self.timeout = timeout
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let channel = context.channel
    deadline = context.eventLoop.scheduleTask(in: timeout) {
      channel.close(promise: nil)
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    deadline?.cancel()
    deadline = nil
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let bytes = unwrapInboundIn(data)
    received += bytes.readableBytes
    guard received <= maxBytes else {
      if !answered {
        answered = true
        // Raw bytes: the request is abandoned mid-parse, so no HTTP encoder state to respect.
        let text =
          "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text))).whenComplete { _ in
          channel.close(promise: nil)
        }
      }
      return
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    guard !answered else {
      promise?.fail(ChannelError.ioOnClosedChannel)
      return
    }
    context.write(data, promise: promise)
  }
}
