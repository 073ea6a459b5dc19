import NIOCore
import NIOWebSocket

/// One open page after its WebSocket upgrade: sends it the backlog, then
/// every published event, and drops it once it falls `viewerBufferBytes`
/// behind (a phone that went to sleep must not hold the daemon's memory).
/// The page sends nothing but pings and the close handshake.
final class ViewerHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let hub: ViewerHub
  private var context: ChannelHandlerContext?
  /// Events up to this one were in the backlog sent at join.
  private var joinedAt: UInt64 = 0
  private var closing = false

  init(hub: ViewerHub) { self.hub = hub }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    let (frames, sequence) = hub.join(self, on: context.eventLoop)
    joinedAt = sequence
    for frame in frames { context.write(wrapOutboundOut(text(frame)), promise: nil) }
    context.flush()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if self.context != nil { hub.leave(self, on: context.eventLoop) }
    self.context = nil
  }

  func deliver(_ frame: ByteBuffer, sequence: UInt64) {
    guard let context, !closing, sequence > joinedAt else { return }
    guard context.channel.isWritable else {
      // Too far behind: a fresh page gets the backlog again when it reconnects.
      closing = true
      context.close(promise: nil)
      return
    }
    context.writeAndFlush(wrapOutboundOut(text(frame)), promise: nil)
  }

  /// Says "going away" and closes; call on the viewer's loop.
  func close(on loop: any EventLoop) -> EventLoopFuture<Void> {
    guard let context, !closing else { return loop.makeSucceededVoidFuture() }
    closing = true
    var data = context.channel.allocator.buffer(capacity: 2)
    data.write(webSocketErrorCode: .goingAway)
    let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
    let channel = context.channel
    return context.writeAndFlush(wrapOutboundOut(frame)).flatMap { channel.close() }
      .recover { _ in }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let frame = unwrapInboundIn(data)
    switch frame.opcode {
    case .ping:
      let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
      context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
    case .connectionClose:
      guard !closing else {
        context.close(promise: nil)
        return
      }
      closing = true
      var data = frame.unmaskedData
      let code = data.readWebSocketErrorCode() ?? .normalClosure
      var reply = context.channel.allocator.buffer(capacity: 2)
      reply.write(webSocketErrorCode: code)
      let echo = WebSocketFrame(fin: true, opcode: .connectionClose, data: reply)
      let channel = context.channel
      context.writeAndFlush(wrapOutboundOut(echo)).whenComplete { _ in channel.close(promise: nil) }
    default:
      break  // The page has nothing to say on this channel; commands go over HTTP.
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }

  private func text(_ buffer: ByteBuffer) -> WebSocketFrame {
    WebSocketFrame(fin: true, opcode: .text, data: buffer)
  }
}
