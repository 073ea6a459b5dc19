import BlueZ

/// Where the daemon reads the clip, as written after `--source` or
/// `source =`: `serial:/dev/ttyUSB0`, `serial:auto`, `ble:C8:FD:19:00:11:22`,
/// `ble:auto`, `ble:hci1/auto`, `replay:FILE`.
public enum SourceSpec: Sendable, Equatable, CustomStringConvertible {
  case serial(path: String)
  /// The first clip udev knows (see Sources/LiftBuddyDaemon/Discovery).
  case serialAuto
  case ble(address: String)
  case replay(path: String)

  public init(parsing text: String) throws(ConfigurationError.Reason) {
    guard let colon = text.firstIndex(of: ":") else {
      throw .init("expected serial:DEVICE, serial:auto, ble:ADDRESS or replay:FILE, got '\(text)'")
    }
    let kind = text[..<colon]
    let rest = String(text[text.index(after: colon)...])
    guard !rest.isEmpty else {
      throw .init("'\(kind):' needs a device, address or file after the colon")
    }
    switch kind {
    case "serial": self = rest == "auto" ? .serialAuto : .serial(path: rest)
    case "ble":
      // Checked here so a mistyped address stops the daemon at start (78).
      guard BleTarget(rest) != nil else {
        throw .init(BluetoothError.invalidTarget(text).description)
      }
      self = .ble(address: rest)
    case "replay": self = .replay(path: rest)
    default:
      throw .init("unknown source kind '\(kind)'; expected serial, ble or replay")
    }
  }

  public var description: String {
    switch self {
    case .serial(let path): "serial:\(path)"
    case .serialAuto: "serial:auto"
    case .ble(let address): "ble:\(address)"
    case .replay(let path): "replay:\(path)"
    }
  }

  public var isLive: Bool {
    if case .replay = self { return false }
    return true
  }
}
