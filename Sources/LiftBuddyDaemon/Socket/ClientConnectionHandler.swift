import Logging
import NIOCore

/// Last stage of a client's pipeline, one per connection: answers its
/// commands in order, holds its subscriptions, and delivers published events
/// to it, dropping it when it falls too far behind.
///
/// All state is confined to the channel's event loop; `publish` reaches it
/// through `ClientRegistry`, never by locking.
final class ClientConnectionHandler: ChannelDuplexHandler {
  typealias InboundIn = Result<ClientCommand, CommandError>
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// What every connection shares with the server.
  struct Environment: Sendable {
    var control: any DaemonControl
    var release: String
    var clientBufferBytes: Int
    /// Shortest spacing of `sample` objects; nil sends none, zero sends all.
    var sampleInterval: TimeAmount?
    /// Time a new connection has to send its first valid command.
    var idleTimeout: TimeAmount?
    var registry: ClientRegistry
    var logger: Logger
  }

  /// Commands buffered behind one that waits on the daemon; past this many,
  /// the handler stops reading from the socket until they are answered.
  private static let maxQueuedCommands = 64
  /// How long a dropped or departing client gets to take its last line.
  static let closeGrace = TimeAmount.milliseconds(500)

  private let environment: Environment
  private var context: ChannelHandlerContext?
  private var subscriptions = SubscriptionSet.none
  private var samples: SampleRateLimiter?
  private var queue = CircularBuffer<Result<ClientCommand, CommandError>>()
  private var awaitingDaemon = false
  private var readHeld = false
  private var finishing = false
  /// The last `status` event sent, so that the final status is not sent twice.
  private var lastStatus: ByteBuffer?
  /// The client has shut down its sending side (`echo … | socat`).
  private var inputClosed = false

  init(environment: Environment) {
    self.environment = environment
    samples = environment.sampleInterval.map(SampleRateLimiter.init)
  }

  // MARK: Lifecycle

  func handlerAdded(context: ChannelHandlerContext) { self.context = context }

  func handlerRemoved(context: ChannelHandlerContext) { self.context = nil }

  func channelActive(context: ChannelHandlerContext) {
    // Accepted just as the server shut down, after its sweep of the clients.
    if environment.registry.isClosed {
      context.close(promise: nil)
      return
    }
    environment.registry.clients(on: context.eventLoop)?.value.add(self)
    send(WireEncoder.version(release: environment.release))
    if let timeout = environment.idleTimeout {
      let registry = environment.registry
      let channel = context.channel
      context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
        guard !registry.isEarned(channel) else { return }
        let seconds = Double(timeout.nanoseconds) / 1e9
        _ = self.finish(
          lastWords: WireEncoder.error(
            "no command within \(DaemonStatus.format(seconds)) s of connecting; disconnecting"))
      }
    }
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    environment.registry.clients(on: context.eventLoop)?.value.remove(self)
    finishing = true
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    environment.logger.debug("socket client error; closing", metadata: ["error": "\(error)"])
    context.close(promise: nil)
  }

  // MARK: Commands

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    queue.append(unwrapInboundIn(data))
    drainQueue()
  }

  /// Backpressure: while commands wait behind a slow daemon call, stop
  /// reading more of them rather than buffer without bound.
  func read(context: ChannelHandlerContext) {
    if queue.count >= Self.maxQueuedCommands {
      readHeld = true
    } else {
      context.read()
    }
  }

  private func drainQueue() {
    while !awaitingDaemon, !finishing, let next = queue.popFirst() {
      handle(next)
    }
    if readHeld, queue.count < Self.maxQueuedCommands, let context {
      readHeld = false
      context.read()
    }
    closeIfDone()
  }

  /// A client that has stopped sending is still answered: the connection
  /// closes once its last command is, unless it is watching, in which case
  /// events keep coming until it closes its end.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case ChannelEvent.inputClosed = event {
      inputClosed = true
      closeIfDone()
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func closeIfDone() {
    guard inputClosed, !finishing, !awaitingDaemon, queue.isEmpty, subscriptions == .none,
      let context
    else {
      return
    }
    finishing = true
    // Writes complete in order: once this empty one has, every reply is out.
    let channel = context.channel
    context.writeAndFlush(wrapOutboundOut(ByteBuffer())).assumeIsolated().whenComplete { _ in
      channel.close(promise: nil)
    }
  }

  private func handle(_ parsed: Result<ClientCommand, CommandError>) {
    if case .success = parsed, let context { environment.registry.earn(context.channel) }
    switch parsed {
    case .failure(let error):
      send(WireEncoder.error(error.message))
    case .success(.version):
      send(WireEncoder.version(release: environment.release))
    case .success(.watch(let enable, let classes)):
      if enable {
        subscriptions = SubscriptionSet(classes)
      } else {
        for c in classes { subscriptions.remove(c) }
      }
      send(WireEncoder.ack(.watch(enable: enable, classes: classes), subscriptions: subscriptions))
    case .success(let command):
      askDaemon(command)
    }
  }

  /// Commands the daemon must answer are awaited off the loop; replies keep
  /// the order of the commands because nothing else is handled meanwhile.
  private func askDaemon(_ command: ClientCommand) {
    guard let context else { return }
    awaitingDaemon = true
    let control = environment.control
    let promise = context.eventLoop.makePromise(of: ByteBuffer.self)
    promise.completeWithTask {
      let failure: String?
      switch command {
      case .status: return WireEncoder.status(await control.currentStatus())
      case .set(let exercise, let load):
        failure = await control.perform(.setNext(exercise: exercise, loadKg: load))
      case .startSet: failure = await control.perform(.startSet)
      case .endSet: failure = await control.perform(.endSet)
      case .watch, .version: failure = nil
      }
      return failure.map(WireEncoder.error) ?? WireEncoder.ack(command)
    }
    promise.futureResult.assumeIsolated().whenSuccess { reply in
      self.awaitingDaemon = false
      self.send(reply)
      self.drainQueue()
    }
  }

  private func send(_ buffer: ByteBuffer) {
    guard !finishing, let context else { return }
    context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
  }

  // MARK: Events

  /// Called on this channel's loop for every published event.
  func deliver(_ frame: ByteBuffer, class eventClass: EventClass) {
    guard subscriptions.contains(eventClass), !finishing else { return }
    if eventClass == .sample {
      guard samples?.admit() == true else { return }
    }
    if eventClass == .status { lastStatus = frame }
    send(frame)
  }

  /// Writability drops when more than `clientBufferBytes` are queued for
  /// this client (the channel's high water mark): it is not keeping up.
  func channelWritabilityChanged(context: ChannelHandlerContext) {
    if !context.channel.isWritable, !finishing {
      environment.logger.warning(
        "dropping socket client: too slow",
        metadata: ["buffered_bytes_limit": "\(environment.clientBufferBytes)"])
      _ = finish(
        lastWords: WireEncoder.error(
          "too slow: more than \(environment.clientBufferBytes) bytes queued; disconnecting"))
    }
    context.fireChannelWritabilityChanged()
  }

  /// Sends one last line (best effort) and closes: at once when it has been
  /// written, or after `closeGrace` when the client is not reading.
  func finish(lastWords: ByteBuffer?) -> EventLoopFuture<Void> {
    guard let context else { return environment.registry.loops[0].loop.makeSucceededVoidFuture() }
    let channel = context.channel
    guard !finishing else { return channel.closeFuture }
    finishing = true
    subscriptions = .none
    // The daemon may publish its stopping status and then pass the same one
    // as the final status: a watcher gets it once. An empty write still
    // tells when everything before it is out.
    let last = lastWords.flatMap { $0 == lastStatus ? nil : $0 } ?? ByteBuffer()
    context.writeAndFlush(wrapOutboundOut(last)).assumeIsolated().whenComplete { _ in
      channel.close(promise: nil)
    }
    context.eventLoop.assumeIsolated().scheduleTask(in: Self.closeGrace) {
      channel.close(promise: nil)
    }
    return channel.closeFuture
  }
}
