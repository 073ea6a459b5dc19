import BlueZ
import NIOCore
import NIOPosix
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// A connected BLE clip's notifications read on an event loop rather than on
/// a thread of its own, as `SerialLoopReader` reads the serial port: when the
/// pipeline's loop runs on that same event loop (the socket server's), a
/// notification is one epoll wake-up of the one thread that frames,
/// analyses and writes the event to the subscribers, and a still bar wakes
/// no other thread (the reader it replaces polled every 250 ms and handed
/// each value through a stream and a task on the pool: BENCHMARKS.md,
/// issue 9).
///
/// Only the streaming is here: connecting, discovery and the subscription
/// are request/response and stay blocking on `DedicatedThread`. Each PDU is
/// decoded by `GattNotificationReceiver`; a reply it calls for (an
/// indication's confirmation) is written back on the channel.
///
/// The descriptor: the `AttBearer` owns it until `read` takes it
/// (`releaseDescriptor`); from then on NIO's channel owns it, with a `dup` of
/// it for the channel's writes, and closes both when the channel closes. If
/// NIO refuses them before a channel exists, `read` closes them itself.
enum BLELoopReader {
  /// The largest ATT PDU on LE is 517 bytes (Core Spec Vol 3 Part F §3.2.9);
  /// a packet longer than a read's buffer is cut short on a SOCK_SEQPACKET
  /// socket, so every read offers the bearer's whole buffer.
  static let readSize = AttBearer.receiveBufferSize

  /// Hands `receiver.early`, then every notified value, to `out` stamped
  /// with `clock`, reading the link on `loop` until it ends. Returns why it
  /// ended, in the words `BluetoothError` gives (as the thread reader's
  /// stream did, so the source's `.lost` reads the same). Cancelling the
  /// calling task closes the link.
  static func read(
    _ receiver: GattNotificationReceiver, on loop: any EventLoop, clock: SourceClock,
    out: SourceOutput
  ) async -> String {
    for value in receiver.early { out.yield(.bytes(value, at: clock.now())) }
    guard let input = receiver.bearer.releaseDescriptor() else {
      return BluetoothError.bearerBusy.description
    }
    let output = dup(input)
    guard output >= 0 else {
      let failure = "cannot read the Bluetooth link: \(Errno(rawValue: errno))"
      close(input)
      return failure
    }
    let ended = loop.makePromise(of: String.self)
    let opened = loop.flatSubmit { () -> EventLoopFuture<any Channel> in
      // NIO owns both descriptors once the channel exists (the initializer
      // runs then) and closes them itself if a later step fails.
      let nioOwnsThem = NIOLoopBoundBox(false, eventLoop: loop)
      return NIOPipeBootstrap(group: loop)
        .channelInitializer { channel in
          nioOwnsThem.value = true
          return channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(
              AttNotificationHandler(receiver: receiver, clock: clock, out: out, ended: ended))
            try channel.syncOptions?.setOption(
              ChannelOptions.recvAllocator,
              value: FixedSizeRecvByteBufferAllocator(capacity: readSize))
          }
        }
        .takingOwnershipOfDescriptors(input: input, output: output)
        .flatMapErrorThrowing { error in
          if !nioOwnsThem.value {
            close(input)
            close(output)
          }
          throw error
        }
    }
    let channel: any Channel
    do {
      channel = try await opened.get()
    } catch {
      let failure = "cannot read the Bluetooth link: \(error)"
      ended.succeed(failure)
      return failure
    }
    return await withTaskCancellationHandler {
      (try? await ended.futureResult.get()) ?? BluetoothError.disconnected(errno: nil).description
    } onCancel: {
      channel.close(promise: nil)
    }
  }
}

/// Hands each notified value to the source's output as it is read, writes
/// back the replies the peer waits for, and says why the link ended.
private final class AttNotificationHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  private let receiver: GattNotificationReceiver
  private let clock: SourceClock
  private let out: SourceOutput
  private let ended: EventLoopPromise<String>
  private var failure: BluetoothError?

  init(
    receiver: GattNotificationReceiver, clock: SourceClock, out: SourceOutput,
    ended: EventLoopPromise<String>
  ) {
    self.receiver = receiver
    self.clock = clock
    self.out = out
    self.ended = ended
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    let received: GattNotificationReceiver.Received
    do {
      received = try receiver.receive(Array(buffer.readableBytesView))
    } catch {
      fail(error, context: context)
      return
    }
    if let reply = received.reply {
      // One PDU a write, so one packet: NIO gathers writes into one
      // `writev` only when some are still queued, and the peer waits for
      // each reply before it sends what calls for the next.
      let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
      context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply)))
        .whenFailure { bound.value.writeFailed($0) }
    }
    if let value = received.value { out.yield(.bytes(value, at: clock.now())) }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // The kernel reports a lost LE link as a read error (ETIMEDOUT,
    // ECONNRESET, ENOTCONN), as it did to the blocking reads.
    fail(.disconnected(errno: (error as? IOError)?.errnoCode), context: context)
  }

  func channelInactive(context: ChannelHandlerContext) {
    ended.succeed((failure ?? .disconnected(errno: nil)).description)
    context.fireChannelInactive()
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    ended.succeed((failure ?? .disconnected(errno: nil)).description)
  }

  /// A reply that could not be sent: the link is gone (the channel closes itself).
  private func writeFailed(_ error: any Error) {
    if failure == nil { failure = .disconnected(errno: (error as? IOError)?.errnoCode) }
  }

  private func fail(_ error: BluetoothError, context: ChannelHandlerContext) {
    if failure == nil { failure = error }
    context.close(promise: nil)
  }
}
