/// The classes of event a client can subscribe to. Raw values are the wire
/// names, so a `classes` array in a `watch` command maps one to one.
public enum EventClass: String, CaseIterable, Sendable, Comparable {
  case lift, rep, sample, set, status
  case repProvisional = "rep_provisional"
  case repWithdrawn = "rep_withdrawn"

  public static func < (a: EventClass, b: EventClass) -> Bool { a.rawValue < b.rawValue }

  /// Which class a published event belongs to; subscriptions filter on it.
  public init(of event: DaemonEvent) {
    switch event {
    case .analyzer(.setStarted): self = .set
    case .analyzer(.rep): self = .rep
    case .analyzer(.provisionalRep): self = .repProvisional
    case .analyzer(.repWithdrawn): self = .repWithdrawn
    case .analyzer(.lift): self = .lift
    case .status: self = .status
    case .sample: self = .sample
    }
  }
}
