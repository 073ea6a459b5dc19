/// Runs the pipeline's loop on a given serial executor, such as the event
/// loop that serves the socket's clients (`Pipeline.Options.executor`).
///
/// What it buys and costs, measured (BENCHMARKS.md, issue 9): the socket
/// server writes to its clients on its event loop, so with the loop on the
/// global pool every event wakes that thread on its way out, and on a
/// loaded machine that wake-up is where the server's tail latency comes
/// from (up to tens of milliseconds before the thread ran, against one or
/// two for the 200 writes). On the event loop itself the writes follow the
/// analysis with no wake-up between them. But each serial chunk then wakes
/// the event loop (epoll, eventfd, NIO's task queue) rather than a pool
/// thread, which cost about 0.1 % of a core more on a still bar at 40 Hz
/// and put the idle cost over its 0.5 % budget; so the daemon leaves the
/// loop on the pool. Reading the serial port on the same event loop would
/// make it one wake-up for both, and this the daemon's choice.
actor LoopHost {
  private let executor: any SerialExecutor

  init(executor: any SerialExecutor) { self.executor = executor }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func run(_ pipeline: Pipeline) async { await pipeline.loop() }
}
