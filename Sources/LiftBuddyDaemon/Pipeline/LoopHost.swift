/// Runs the pipeline's loop on a given serial executor: in the daemon, the
/// event loop that serves the socket's (and the web view's) clients.
///
/// Why: the socket server writes to its clients on that event loop. With
/// the loop on the global pool, every event crossed threads on its way out
/// (`EventLoop.execute` wakes the event loop's thread), and on a loaded
/// machine that wake-up was where the tail latency came from: tens of
/// milliseconds before the thread ran, against about one for the 200
/// writes themselves (BENCHMARKS.md). On the same thread, the writes follow
/// the analysis with no wake-up in between.
actor LoopHost {
  private let executor: any SerialExecutor

  init(executor: any SerialExecutor) { self.executor = executor }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func run(_ pipeline: Pipeline) async { await pipeline.loop() }
}
