import Logging
import ServiceLifecycle

/// Runs the pipeline as a service: says READY=1 once reading starts, and on
/// graceful shutdown (SIGTERM/SIGINT) cancels the source, so that the set in
/// progress is closed and written before the service returns. A replay that
/// reaches the end of its file returns too, which ends the daemon.
public struct PipelineService: Service {
  public let pipeline: Pipeline
  private let notifier: SystemdNotifier
  private let readyStatus: String

  public init(pipeline: Pipeline, notifier: SystemdNotifier, readyStatus: String) {
    self.pipeline = pipeline
    self.notifier = notifier
    self.readyStatus = readyStatus
  }

  /// A live source that stops on its own (it should only stop when told):
  /// the daemon exits non-zero, so that systemd restarts it.
  public struct SourceEnded: Error, CustomStringConvertible {
    public var source: String
    public var description: String { "\(source) stopped unexpectedly" }
  }

  public func run() async throws {
    notifier.ready(status: readyStatus)
    let pipeline = self.pipeline
    await cancelWhenGracefulShutdown { await pipeline.run() }
    if case .live = pipeline.source.hints.timing, !Task.isShuttingDownGracefully, !Task.isCancelled
    {
      throw SourceEnded(source: pipeline.source.name)
    }
  }
}
