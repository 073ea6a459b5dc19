#if canImport(Glibc)
  import Glibc
#endif

/// Everything that can go wrong between the daemon and a clip, each with one
/// line that names the cause and what to do, because this is what a user reads
/// in `journalctl` or on the terminal when their clip does not show up.
public enum BluetoothError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What we were doing when the system refused, so the advice fits.
  public enum Operation: String, Hashable, Sendable {
    case openSocket = "opening a Bluetooth socket"
    case connect = "connecting"
    case openAdapter = "opening the Bluetooth adapter"
    case scan = "scanning"
  }

  /// A system call failed; `errno` says why.
  case system(Operation, errno: Int32)
  /// The peer did not answer an ATT request within the transaction timeout
  /// (30 s, Core Spec Vol 3 Part F §3.3.3); after that the bearer is unusable.
  case timeout(request: UInt8)
  /// The link went away: the peer closed it, went out of range, or lost power.
  case disconnected(errno: Int32?)
  /// The server answered a request with an Error Response we cannot work around.
  case attError(request: UInt8, handle: UInt16, code: AttErrorCode)
  /// The peer sent bytes that are not valid ATT.
  case malformed(AttDecodingError)
  /// The server answered with a PDU that does not belong to the request.
  case unexpectedResponse(request: UInt8, got: UInt8)
  /// Discovery finished without any service we can read the clip's lines from.
  case noUartService(found: [BluetoothUUID])
  /// The UART service has no characteristic with the Notify or Indicate property.
  case noNotifyCharacteristic(service: BluetoothUUID)
  /// A `ble:` source string that is neither `auto` nor an address.
  case invalidTarget(String)
  /// A scan ran its whole time and saw no clip.
  case noClipFound(seconds: Int)
  /// Requests after the notification stream started: the stream owns the bearer.
  case bearerBusy
  /// No local adapter can be used (or the one named in the source cannot);
  /// the text names each adapter and why (see `HciAdapter`).
  case adapterUnusable(String)

  public var description: String {
    switch self {
    case .system(let operation, let code): Self.describe(operation, code)
    case .timeout(let request):
      "the clip stopped answering (no reply to ATT request 0x\(String(request, radix: 16)) within the transaction timeout); it will be reconnected"
    case .disconnected(let code):
      if let code, code != 0 {
        "the Bluetooth link to the clip was lost (\(Self.errnoName(code))): out of range or switched off; reconnecting"
      } else {
        "the clip closed the Bluetooth link (switched off or out of range); reconnecting"
      }
    case .attError(let request, let handle, let code):
      "the clip refused ATT request 0x\(String(request, radix: 16)) on handle 0x\(String(handle, radix: 16)): \(code)"
    case .malformed(let error): "the clip sent a malformed ATT packet: \(error)"
    case .unexpectedResponse(let request, let got):
      "the clip answered ATT request 0x\(String(request, radix: 16)) with opcode 0x\(String(got, radix: 16))"
    case .noUartService(let found):
      "the device has no clip UART service (looked for Nordic UART, RedBearLab BLE Mini and HM-10 0xFFE0; found \(found.map(\.description).joined(separator: ", "))): is this the clip?"
    case .noNotifyCharacteristic(let service):
      "the UART service \(service) has no characteristic that notifies: the clip's firmware or module is not set up to stream"
    case .invalidTarget(let text):
      "'\(text)' is not a BLE source: use ble:auto, ble:AA:BB:CC:DD:EE:FF or ble:AA:BB:CC:DD:EE:FF/random, optionally after an adapter (ble:hci1/auto)"
    case .noClipFound(let seconds):
      "no clip seen in \(seconds) s of scanning: is it powered and advertising, and not connected to a phone?"
    case .bearerBusy: "the ATT bearer is already streaming notifications"
    case .adapterUnusable(let detail):
      "no Bluetooth adapter to use: \(detail); name a free one in the source (ble:hci0/auto, ble:hci0/AA:BB:CC:DD:EE:FF)"
    }
  }

  private static func describe(_ operation: Operation, _ code: Int32) -> String {
    let cause = errnoName(code)
    switch code {
    case EAFNOSUPPORT:
      return
        "Bluetooth is not available: this kernel has no AF_BLUETOOTH support (\(cause)); load it with `modprobe bluetooth` (not possible in most containers) or use a serial: source"
    case ENODEV:
      return "no Bluetooth adapter found (\(cause)): plug one in and check `bluetoothctl list`"
    case ENETDOWN, ERFKILL:
      return
        "the Bluetooth adapter is down or blocked (\(cause)): run `rfkill unblock bluetooth` and `bluetoothctl power on`"
    case EPERM, EACCES:
      if operation == .scan || operation == .openAdapter {
        return
          "scanning needs CAP_NET_RAW (\(cause)): add AmbientCapabilities=CAP_NET_RAW to the unit or run `liftbuddy scan` as root; connecting to a known address (ble:AA:BB:CC:DD:EE:FF) needs no capability"
      }
      return
        "\(operation.rawValue) was refused (\(cause)): check the unit's RestrictAddressFamilies= allows AF_BLUETOOTH"
    case EBUSY where operation == .scan, EIO where operation == .scan:
      return
        "the adapter refused to start an LE scan (\(cause)); bluetoothd is probably scanning: run `bluetoothctl scan off`, or configure the clip's address instead of ble:auto"
    case ETIMEDOUT, EHOSTDOWN:
      return
        "the clip did not answer the connection (\(cause)): is it powered, in range, not connected to a phone, and is the address type (public/random) right?"
    case EHOSTUNREACH:
      return "no route to the clip (\(cause)): is a Bluetooth adapter present and powered?"
    case ECONNREFUSED:
      return "the clip refused the connection (\(cause)): check the address type (public/random)"
    default:
      return "\(operation.rawValue) failed (\(cause))"
    }
  }

  /// `strerror` plus the symbolic name a user can search for.
  static func errnoName(_ code: Int32) -> String {
    let symbol: String =
      switch code {
      case EAFNOSUPPORT: "EAFNOSUPPORT"
      case ENODEV: "ENODEV"
      case ENETDOWN: "ENETDOWN"
      case ERFKILL: "ERFKILL"
      case EPERM: "EPERM"
      case EACCES: "EACCES"
      case EBUSY: "EBUSY"
      case EIO: "EIO"
      case ETIMEDOUT: "ETIMEDOUT"
      case EHOSTDOWN: "EHOSTDOWN"
      case EHOSTUNREACH: "EHOSTUNREACH"
      case ECONNREFUSED: "ECONNREFUSED"
      case ECONNRESET: "ECONNRESET"
      case ENOTCONN: "ENOTCONN"
      case EPIPE: "EPIPE"
      default: "errno"
      }
    let text = strerror(code).map { String(cString: $0) } ?? "unknown error"
    return "errno \(code) \(symbol), \(text)"
  }
}
