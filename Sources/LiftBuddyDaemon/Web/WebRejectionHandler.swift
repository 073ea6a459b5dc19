import NIOCore

/// Stands in for the whole pipeline on a connection beyond the limit (or
/// during shutdown): a bare 503, then close, before reading anything.
final class WebRejectionHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  static let response =
    "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\nretry-after: 5\r\n\r\n"

  func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: Self.response))).whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
