import ServiceLifecycle

/// Pings systemd's watchdog (WATCHDOG=1) at half of WATCHDOG_USEC, but only
/// after the pipeline has answered: a wedged pipeline stops the pings and
/// systemd restarts the daemon.
public struct WatchdogService: Service {
  private let pipeline: Pipeline
  private let notifier: SystemdNotifier
  private let interval: Duration

  public init(pipeline: Pipeline, notifier: SystemdNotifier, interval: Duration) {
    self.pipeline = pipeline
    self.notifier = notifier
    self.interval = interval
  }

  public func run() async throws {
    let pipeline = self.pipeline
    let notifier = self.notifier
    let interval = self.interval
    await cancelWhenGracefulShutdown {
      while !Task.isCancelled {
        await pipeline.heartbeat()
        notifier.watchdog()
        try? await Task.sleep(for: interval)
      }
    }
  }
}
