/// Turns a `SourceSpec` into its driver. This is the one place that knows
/// every driver; the pipeline only sees `ClipSource`.
public enum SourceFactory {
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// Finds the clip's serial device for `serial:auto` through udev (see
  /// Discovery/ClipDiscovery.swift); called before every connection attempt,
  /// so a clip re-plugged as another ttyUSB node is found again.
  public static let autoSerialLocator: SerialSource.Locator = {
    try ClipDiscovery.firstClipDevicePath()
  }

  public static func make(_ spec: SourceSpec, configuration: DaemonConfiguration) throws
    -> any ClipSource
  {
    switch spec {
    case .serial(let path):
      return SerialSource(path: path, baud: configuration.baud)
    case .serialAuto:
      return SerialSource(name: "serial:auto", baud: configuration.baud, locate: autoSerialLocator)
    case .replay(let path):
      do {
        return try ReplaySource(
          path: path, speed: configuration.speed, loop: configuration.loop,
          nominalRateHz: configuration.analyzer.nominalRateHz)
      } catch {
        throw Unavailable(description: "cannot read \(path): \(error)")
      }
    case .ble(let address):
      do {
        return try BLESource(address: address, backoff: Backoff())
      } catch {
        throw Unavailable(description: "ble:\(address): \(error)")
      }
    }
  }
}
