import NIOCore
import NIOPosix
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// The serial port read on an event loop rather than on a thread of its
/// own: when the pipeline's loop runs on that same event loop (the socket
/// server's), a chunk from the clip is one epoll wake-up of the one thread
/// that frames, analyses and writes the event to the subscribers.
///
/// Why: with the loop on the socket's event loop, an event reaches the
/// subscribers without waiting for a second thread to get a core, which is
/// where the tail latency on a loaded machine came from; but with the port
/// read on its own thread every chunk then also woke the event loop, and on a
/// still bar at 40 Hz that cost more CPU than the idle budget allowed
/// (BENCHMARKS.md, issue 9). Here the port's descriptor is one more
/// channel on the loop (`NIOPipeBootstrap`), so there is no second wake-up.
///
/// The one serial reader (`liftbuddy record`, with no loop of its own, gets
/// one of NIO's shared loops): `connected`, then bytes
/// stamped with the source clock as they are read; on EOF, EIO or a
/// hang-up `lost`, `retrying` and a new attempt after the backoff, the
/// device path resolved anew each time. Every member is used on the loop
/// alone; finding and opening the device (`serial:auto` asks udev, then
/// termios) also runs there, once per attempt, for a few milliseconds.
final class SerialLoopReader {
  private let loop: any EventLoop
  private let locate: SerialSource.Locator
  private let baud: Int
  private var backoff: Backoff
  private let clock: SourceClock
  private let out: SourceOutput
  private var lastFailure: String?
  private var channel: (any Channel)?
  private var retry: Scheduled<Void>?
  private var stopped = false

  private init(
    loop: any EventLoop, locate: @escaping SerialSource.Locator, baud: Int, backoff: Backoff,
    clock: SourceClock, out: SourceOutput
  ) {
    self.loop = loop
    self.locate = locate
    self.baud = baud
    self.backoff = backoff
    self.clock = clock
    self.out = out
  }

  /// Starts reading on `loop` until `out` is closed.
  static func start(
    on loop: any EventLoop, locate: @escaping SerialSource.Locator, baud: Int, backoff: Backoff,
    clock: SourceClock, out: SourceOutput
  ) {
    loop.execute {
      let reader = SerialLoopReader(
        loop: loop, locate: locate, baud: baud, backoff: backoff, clock: clock, out: out)
      let bound = NIOLoopBound(reader, eventLoop: loop)
      out.onClose { loop.execute { bound.value.stop() } }
      reader.connect()
    }
  }

  private var bound: NIOLoopBound<SerialLoopReader> { NIOLoopBound(self, eventLoop: loop) }

  private func connect() {
    guard !stopped else { return }
    let path: String
    let fd: SystemPackage.FileDescriptor
    do {
      path = try locate()
      fd = try SerialPort.open(path: path, baud: baud)
    } catch {
      failed("\(error)")
      return
    }
    let bound = self.bound
    let (clock, out) = (clock, out)
    // NIO owns the descriptor once the channel exists (the initializer runs
    // then) and closes it itself if a later step fails; before that, a
    // failure hands it back to be closed here.
    let nioOwnsIt = NIOLoopBoundBox(false, eventLoop: loop)
    NIOPipeBootstrap(group: loop)
      .channelInitializer { channel in
        nioOwnsIt.value = true
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(
            SerialChannelHandler(
              path: path, clock: clock, out: out,
              active: { bound.value.connected() },
              gone: { bound.value.gone($0) }))
        }
      }
      .takingOwnershipOfDescriptor(input: fd.rawValue)
      .whenComplete { result in
        switch result {
        case .success(let channel):
          // Stopped while the channel was being set up: nothing will close it later.
          if bound.value.stopped {
            channel.close(promise: nil)
          } else {
            bound.value.channel = channel
          }
        case .failure(let error):
          if !nioOwnsIt.value { try? fd.close() }
          bound.value.failed("cannot read \(path): \(error)")
        }
      }
  }

  private func connected() {
    backoff.reset()
    lastFailure = nil
  }

  private func gone(_ reason: String) {
    channel = nil
    guard !stopped else { return }
    out.yield(.status(.lost(reason: reason)))
    lastFailure = reason
    scheduleRetry()
  }

  private func failed(_ failure: String) {
    // Repeating the same failure every 8 s would flood the log and the
    // clients; say it once, keep retrying quietly.
    if failure != lastFailure { out.yield(.status(.lost(reason: failure))) }
    lastFailure = failure
    scheduleRetry()
  }

  private func scheduleRetry() {
    guard !stopped else { return }
    let delay = backoff.take()
    out.yield(.status(.retrying(inSeconds: delay)))
    let bound = self.bound
    retry = loop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { bound.value.connect() }
  }

  private func stop() {
    guard !stopped else { return }
    stopped = true
    retry?.cancel()
    channel?.close(promise: nil)
    out.finish()
  }
}

/// Hands the port's bytes to the source's output as they are read, and
/// tells the reader when the port is open and when it is gone (and why).
private final class SerialChannelHandler: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private let path: String
  private let clock: SourceClock
  private let out: SourceOutput
  private let active: @Sendable () -> Void
  private let gone: @Sendable (String) -> Void
  private var reason: String?

  init(
    path: String, clock: SourceClock, out: SourceOutput, active: @escaping @Sendable () -> Void,
    gone: @escaping @Sendable (String) -> Void
  ) {
    self.path = path
    self.clock = clock
    self.out = out
    self.active = active
    self.gone = gone
  }

  func channelActive(context: ChannelHandlerContext) {
    out.yield(.status(.connected(detail: path)))
    active()
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    out.yield(.bytes(Array(buffer.readableBytesView), at: clock.now()))
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if reason == nil {
      if let io = error as? IOError {
        let e = io.errnoCode
        reason =
          "device unplugged or failing: \(Errno(rawValue: e)) (\(e == EIO ? "EIO" : String(e)))"
      } else {
        reason = "device error: \(error)"
      }
    }
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    gone(reason ?? "end of file (device closed)")
    context.fireChannelInactive()
  }
}
