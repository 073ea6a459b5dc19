import NIOCore

/// Second stage: each framed line becomes a command or the error the client
/// will be sent. Every frame yields exactly one result, which is what gives
/// every command line exactly one reply.
final class CommandDecodingHandler: ChannelInboundHandler {
  typealias InboundIn = CommandFramer.Frame
  typealias InboundOut = Result<ClientCommand, CommandError>

  private let maxLineBytes: Int

  init(maxLineBytes: Int) { self.maxLineBytes = maxLineBytes }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let result: Result<ClientCommand, CommandError>
    switch unwrapInboundIn(data) {
    case .line(let bytes): result = CommandParser.parse(bytes)
    case .overlong:
      result = .failure(
        CommandError("command longer than \(maxLineBytes) bytes; discarded up to its newline"))
    }
    context.fireChannelRead(wrapInboundOut(result))
  }
}
