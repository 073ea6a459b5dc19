import NIOCore

/// Runs the pipeline's loop on a given serial executor: the event loop that
/// serves the socket's clients (`Pipeline.Options.eventLoop`).
///
/// What it buys, measured (BENCHMARKS.md, issue 9): the socket server
/// writes to its clients on its event loop, so with the loop on the global
/// pool every event wakes that thread on its way out, and on a loaded
/// machine that wake-up is where the server's tail latency came from (up to
/// tens of milliseconds before the thread ran, against one or two for the
/// 200 writes). On the event loop itself the writes follow the analysis
/// with no wake-up between them. What it would cost if the source were read
/// on a thread of its own: each serial chunk would then wake the event loop
/// (epoll, eventfd, NIO's task queue) rather than a pool thread, about 0.1 %
/// of a core more on a still bar at 40 Hz, over the idle budget. So the
/// daemon runs its loop here for a live clip only, serial or BLE, which is
/// then read on this same event loop (`SerialLoopReader`, `BLELoopReader`):
/// one wake-up per chunk or notification. A replay reads its file on a
/// thread of its own and keeps its loop on the pool.
actor LoopHost {
  private let executor: any SerialExecutor

  init(executor: any SerialExecutor) { self.executor = executor }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func run(_ pipeline: Pipeline) async { await pipeline.loop() }
}

/// An event loop as a task executor (SE-0417), which NIO does not offer:
/// with it preferred, what the loop's task runs outside the loop's actor,
/// and every resumption of a continuation it waits on, is enqueued on the
/// event loop too, not on the global pool.
///
/// Why: a continuation resumes on the generic executor and then hops to its
/// actor. With the loop pinned to an event loop, each serial chunk read on
/// that loop woke a pool thread, which woke the event loop back (an eventfd
/// write): two wake-ups per chunk, seen with `perf` on the idle daemon.
/// Preferring the event loop keeps both hops on its own task queue.
final class EventLoopTaskExecutor: TaskExecutor {
  let loop: any EventLoop

  init(_ loop: any EventLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
