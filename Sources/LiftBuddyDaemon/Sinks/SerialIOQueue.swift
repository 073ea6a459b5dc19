import NIOCore
import NIOPosix

/// The thread a sink that does blocking I/O (write, fsync, rename) runs
/// that I/O on, so that a slow disk holds up that sink alone: the pipeline
/// hands it an event and goes on to the socket at once, and Swift's
/// cooperative threads are never blocked in `fsync`.
///
/// Work runs in submission order, one item at a time; state confined to the
/// queue can live in a `NIOLoopBoundBox` on `loop`.
public final class SerialIOQueue: Sendable {
  private let group: MultiThreadedEventLoopGroup
  public let loop: any EventLoop

  public init() {
    group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    loop = group.next()
  }

  /// Runs `work` on the queue's thread, after everything submitted before.
  public func execute(_ work: @escaping @Sendable () -> Void) { loop.execute(work) }

  /// Runs `work` on the queue's thread after `delay`, unless cancelled.
  @discardableResult
  public func schedule(in delay: TimeAmount, _ work: @escaping @Sendable () -> Void)
    -> Scheduled<Void>
  {
    loop.scheduleTask(in: delay, work)
  }

  /// Returns once everything submitted before the call has run.
  public func drain() async {
    try? await loop.submit {}.get()
  }

  /// Stops the thread; work not yet run is dropped.
  public func shutdown() async {
    try? await group.shutdownGracefully()
  }
}
