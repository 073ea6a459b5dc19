import NIOCore
import NIOWebSocket

/// One open page after its WebSocket upgrade: sends it the backlog, then
/// every published event, and drops it once it falls `viewerBufferBytes`
/// behind (a phone that went to sleep must not hold the daemon's memory).
/// The page sends nothing but pongs and the close handshake.
///
/// Every `pingInterval` it pings; a page that has not answered the previous
/// ping by then is closed. A phone that left the Wi-Fi without closing would
/// otherwise hold a connection slot for hours (TCP's own keepalive starts
/// after two), and a phone that sleeps and wakes all day opens a new one
/// each time.
final class ViewerHandler: ChannelInboundHandler {
  typealias InboundIn = WebSocketFrame
  typealias OutboundOut = WebSocketFrame

  private let hub: ViewerHub
  private let pingInterval: TimeAmount
  private var context: ChannelHandlerContext?
  /// Events up to this one were in the backlog sent at join.
  private var joinedAt: UInt64 = 0
  private var closing = false
  private var awaitingPong = false
  private var pinger: RepeatedTask?

  init(hub: ViewerHub, pingInterval: TimeAmount) {
    self.hub = hub
    self.pingInterval = pingInterval
  }

  func handlerAdded(context: ChannelHandlerContext) {
    self.context = context
    let (frames, sequence) = hub.join(self, on: context.eventLoop)
    joinedAt = sequence
    for frame in frames { context.write(wrapOutboundOut(text(frame)), promise: nil) }
    context.flush()
    let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
    pinger = context.eventLoop.scheduleRepeatedTask(
      initialDelay: pingInterval, delay: pingInterval
    ) { _ in bound.value.ping() }
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    pinger?.cancel()
    pinger = nil
    if self.context != nil { hub.leave(self, on: context.eventLoop) }
    self.context = nil
  }

  private func ping() {
    guard let context, !closing else { return }
    guard !awaitingPong else {
      closing = true
      context.close(promise: nil)
      return
    }
    awaitingPong = true
    let frame = WebSocketFrame(
      fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
    context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
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
    case .pong:
      awaitingPong = false
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
