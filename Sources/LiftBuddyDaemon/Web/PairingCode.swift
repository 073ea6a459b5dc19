/// The code a phone must send to change the exercise or start and end a set.
/// Watching needs none; steering does, so that a stranger on the gym's Wi-Fi
/// cannot end someone's set.
public struct PairingCode: Sendable, Equatable, CustomStringConvertible {
  public let value: String

  /// A code from the config file: 4 to 64 printable ASCII characters.
  public init?(_ value: String) {
    guard (4...64).contains(value.utf8.count), value.utf8.allSatisfy({ (33...126).contains($0) })
    else { return nil }
    self.value = value
  }

  /// Six random digits, new at every start.
  public static func random() -> PairingCode {
    var rng = SystemRandomNumberGenerator()
    let digits = (0..<6).map { _ in String(rng.next(upperBound: UInt8(10))) }.joined()
    return PairingCode(digits)!
  }

  /// Compares in time independent of where the first difference is.
  public func matches(_ candidate: String?) -> Bool {
    guard let candidate else { return false }
    let a = Array(value.utf8)
    let b = Array(candidate.utf8)
    var diff = UInt8(a.count == b.count ? 0 : 1)
    for i in 0..<a.count { diff |= a[i] ^ (i < b.count ? b[i] : 0) }
    return diff == 0
  }

  public var description: String { value }
}
