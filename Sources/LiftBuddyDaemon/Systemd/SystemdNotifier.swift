import CSystemd

#if canImport(Glibc)
  import Glibc
#endif

/// sd_notify(3) for the service manager: READY=1, STATUS=…, STOPPING=1 and
/// WATCHDOG=1. Every call is a no-op when the daemon does not run under
/// systemd (no `$NOTIFY_SOCKET`).
public struct SystemdNotifier: Sendable {
  public init() {}

  public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func status(_ text: String) { send("STATUS=\(text)") }
  public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(status)") }
  /// sd_notify(3): RELOADING=1 goes with the CLOCK_MONOTONIC time at which
  /// the reload started.
  public func reloading(status: String) {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    let usec = UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    send("RELOADING=1\nMONOTONIC_USEC=\(usec)\nSTATUS=\(status)")
  }
  public func reloaded(status: String) { send("READY=1\nSTATUS=\(status)") }
  public func watchdog() { send("WATCHDOG=1") }

  /// Half of `WATCHDOG_USEC`, the interval sd_watchdog_enabled(3) advises,
  /// or nil when the watchdog is off (or meant for another process).
  public func watchdogInterval() -> Duration? {
    var usec: UInt64 = 0
    guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
    return .microseconds(Int64(usec / 2))
  }

  private func send(_ state: String) {
    _ = sd_notify(0, state)
  }
}
