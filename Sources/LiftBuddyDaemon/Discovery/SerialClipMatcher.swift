/// Picks the clip among the tty devices udev knows. Pure, so the rules can be
/// tested without hardware: the udev rule's mark first, then Arduino boards,
/// then generic USB-serial bridges; ties go to the lowest device node so the
/// choice is stable between runs.
public struct SerialClipMatcher: Sendable {
  public var known: [KnownSerialChip]

  public init(known: [KnownSerialChip] = KnownSerialChip.all) {
    self.known = known
  }

  /// Every plausible clip, best first; devices that match nothing are left out.
  public func candidates(_ devices: [SerialDeviceInfo]) -> [SerialClipMatch] {
    devices.compactMap(match).sorted {
      ($0.reason.rank, $0.device.devnode) < ($1.reason.rank, $1.device.devnode)
    }
  }

  public func best(_ devices: [SerialDeviceInfo]) -> SerialClipMatch? { candidates(devices).first }

  public func match(_ device: SerialDeviceInfo) -> SerialClipMatch? {
    if device.clipProperty == "1" { return SerialClipMatch(device: device, reason: .projectRule) }
    guard let id = device.usbID, let chip = known.first(where: { $0.id == id }) else { return nil }
    return SerialClipMatch(device: device, reason: .knownDevice(chip.kind, name: chip.name))
  }
}
