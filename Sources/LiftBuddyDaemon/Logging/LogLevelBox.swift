import Foundation
import Logging

/// The daemon's log level, shared by every logger so that a reload changes
/// it everywhere at once.
public final class LogLevelBox: @unchecked Sendable {
  private let lock = NSLock()
  private var _level: Logger.Level

  public init(_ level: Logger.Level) { _level = level }

  public var level: Logger.Level {
    get { lock.withLock { _level } }
    set { lock.withLock { _level = newValue } }
  }
}
