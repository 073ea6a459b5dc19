import NIOCore

/// Stands in for the whole pipeline on a connection the server will not
/// serve (full, or shutting down): says why, then closes.
final class RejectionHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let message: String

  init(message: String) { self.message = message }

  func channelActive(context: ChannelHandlerContext) {
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(WireEncoder.error(message))).assumeIsolated().whenComplete
    { _ in
      channel.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
