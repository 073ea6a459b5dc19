import NIOCore

/// First stage of a client's pipeline: bytes in, bounded command lines out.
/// Also the only stage that sees a half-sent line, so it owns the timeout for
/// clients that start a command and never finish it.
final class LineFramingHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = CommandFramer.Frame
  typealias OutboundOut = ByteBuffer

  private var framer: CommandFramer
  private let partialTimeout: TimeAmount?
  private var timer: Scheduled<Void>?

  init(maxLineBytes: Int, partialTimeout: Duration?) {
    framer = CommandFramer(maxLineBytes: maxLineBytes)
    self.partialTimeout = partialTimeout.map(TimeAmount.init)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let bytes = unwrapInboundIn(data)
    var frames: [CommandFramer.Frame] = []
    bytes.withUnsafeReadableBytes { framer.feed($0) { frames.append($0) } }
    for frame in frames { context.fireChannelRead(wrapInboundOut(frame)) }
    armTimer(context: context)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case ChannelEvent.inputClosed = event {
      var frames: [CommandFramer.Frame] = []
      framer.finish { frames.append($0) }
      for frame in frames { context.fireChannelRead(wrapInboundOut(frame)) }
      armTimer(context: context)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    timer?.cancel()
    timer = nil
  }

  private func armTimer(context: ChannelHandlerContext) {
    guard framer.hasPartialLine else {
      timer?.cancel()
      timer = nil
      return
    }
    guard timer == nil, let partialTimeout else { return }
    let seconds = Double(partialTimeout.nanoseconds) / 1e9
    timer = context.eventLoop.assumeIsolated().scheduleTask(in: partialTimeout) {
      let message = "command not finished within \(seconds.formatted()) s; disconnecting"
      context.writeAndFlush(NIOAny(WireEncoder.error(message)), promise: nil)
      context.close(promise: nil)
    }
  }
}

extension Double {
  /// "30" rather than "30.0" in messages.
  fileprivate func formatted() -> String {
    rounded() == self ? String(Int(self)) : String(self)
  }
}
