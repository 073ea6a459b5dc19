import Logging
import Synchronization

/// The daemon's log level, shared by every logger so that a reload changes
/// it everywhere at once.
public final class LogLevelBox: Sendable {
  private let current: Mutex<Logger.Level>

  public init(_ level: Logger.Level) { current = Mutex(level) }

  public var level: Logger.Level {
    get { current.withLock { $0 } }
    set { current.withLock { $0 = newValue } }
  }
}
