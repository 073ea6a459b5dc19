import LiftBuddyCore

/// Keeps systemd's one-line STATUS= (what `systemctl status` shows) in step
/// with the source and the sets.
public struct SystemdStatusSink: EventSink {
  private let notifier: SystemdNotifier

  public init(notifier: SystemdNotifier) { self.notifier = notifier }

  public func publish(_ event: DaemonEvent) {
    switch event {
    case .status(let s):
      notifier.status("\(s.source): \(s.state.rawValue)\(s.message.map { ", \($0)" } ?? "")")
    case .analyzer(.setStarted(let s)):
      notifier.status("set \(s.setNumber) in progress")
    case .analyzer(.lift(let r)):
      notifier.status("last set: \(r.summary.repCount) reps (\(r.id))")
    default:
      break
    }
  }
}
