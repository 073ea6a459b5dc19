/// A client's subscriptions as a bit set: the check runs once per client per
/// published event, on the hot path, so it must not allocate.
public struct SubscriptionSet: Equatable, Sendable {
  private var bits: UInt8

  public static let none = SubscriptionSet(bits: 0)
  public static let all = SubscriptionSet(EventClass.allCases)

  private init(bits: UInt8) { self.bits = bits }

  public init(_ classes: some Sequence<EventClass>) {
    bits = 0
    for c in classes { insert(c) }
  }

  public func contains(_ c: EventClass) -> Bool { bits & Self.bit(c) != 0 }
  public mutating func insert(_ c: EventClass) { bits |= Self.bit(c) }
  public mutating func remove(_ c: EventClass) { bits &= ~Self.bit(c) }

  /// Sorted by wire name, so that acknowledgements are deterministic.
  public var classes: [EventClass] { EventClass.allCases.filter(contains).sorted() }

  private static func bit(_ c: EventClass) -> UInt8 {
    switch c {
    case .lift: 1
    case .rep: 2
    case .sample: 4
    case .set: 8
    case .status: 16
    case .repProvisional: 32
    case .repWithdrawn: 64
    }
  }
}
