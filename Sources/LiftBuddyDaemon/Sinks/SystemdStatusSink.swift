import LiftBuddyCore

/// Keeps systemd's one-line STATUS= (what `systemctl status` shows) in step
/// with the source and the sets.
public struct SystemdStatusSink: EventSink {
  private let notifier: SystemdNotifier
  /// Appended to every status line (the web view's address and pairing code).
  private let suffix: String

  public init(notifier: SystemdNotifier, suffix: String = "") {
    self.notifier = notifier
    self.suffix = suffix
  }

  public func publish(_ event: DaemonEvent) {
    switch event {
    case .status(let s):
      say("\(s.source): \(s.state.rawValue)\(s.message.map { ", \($0)" } ?? "")")
    case .analyzer(.setStarted(let s)):
      say("set \(s.setNumber) in progress")
    case .analyzer(.lift(let r)):
      say("last set: \(r.summary.repCount) reps (\(r.id))")
    default:
      break
    }
  }

  private func say(_ text: String) { notifier.status(text + suffix) }
}
