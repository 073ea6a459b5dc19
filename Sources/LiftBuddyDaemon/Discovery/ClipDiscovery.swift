/// The `serial:auto` lookup: udev enumeration plus `SerialClipMatcher`, run
/// again before every connection attempt so a re-plugged clip that came back
/// as /dev/ttyUSB1 is still found.
public enum ClipDiscovery {
  /// The device node of the best clip candidate.
  public static func firstClipDevicePath() throws -> String {
    try firstClip().device.devnode
  }

  public static func firstClip(matcher: SerialClipMatcher = SerialClipMatcher()) throws
    -> SerialClipMatch
  {
    let devices = try UdevTtyEnumerator.devices()
    guard let best = matcher.best(devices) else { throw NoSerialClipError(unmatched: devices) }
    return best
  }
}
