/// Whether an LE address is the public (IEEE-assigned) one or a random one.
/// The kernel needs it to connect: the same six bytes name different devices
/// under each type, and most nRF5x UART clips use a random static address
/// while HM-10 modules use their public one.
public enum LEAddressType: String, Sendable, Hashable, CaseIterable {
  case `public`
  case random

  /// `BDADDR_LE_PUBLIC` / `BDADDR_LE_RANDOM` from `<bluetooth/bluetooth.h>`: the
  /// value `sockaddr_l2.l2_bdaddr_type` wants.
  public var socketAddressType: UInt8 {
    switch self {
    case .public: 0x01
    case .random: 0x02
    }
  }

  /// Maps the HCI advertising report's Address_Type (Core Spec Vol 4 Part E
  /// §7.7.65.2): 0x00 public, 0x01 random, 0x02/0x03 the public/random identity
  /// address resolved by the controller.
  public init?(hciAddressType: UInt8) {
    switch hciAddressType {
    case 0x00, 0x02: self = .public
    case 0x01, 0x03: self = .random
    default: return nil
    }
  }
}
