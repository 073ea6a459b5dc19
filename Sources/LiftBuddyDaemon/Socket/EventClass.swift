/// The classes of event a client can subscribe to. Raw values are the wire
/// names, so a `classes` array in a `watch` command maps one to one.
public enum EventClass: String, CaseIterable, Sendable, Comparable {
  case lift, rep, sample, set, status

  public static func < (a: EventClass, b: EventClass) -> Bool { a.rawValue < b.rawValue }

  /// Which class a published event belongs to; subscriptions filter on it.
  public init(of event: DaemonEvent) {
    switch event {
    case .analyzer(.setStarted): self = .set
    case .analyzer(.rep): self = .rep
    case .analyzer(.lift): self = .lift
    case .status: self = .status
    case .sample: self = .sample
    }
  }
}
