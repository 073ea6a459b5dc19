import ArgumentParser
import BlueZ
import Foundation
import LiftBuddyDaemon

#if canImport(Glibc)
  import Glibc
#endif

/// `liftbuddy scan`: finds clips nearby and prints each as a `--source` value
/// ready to paste into the config. BLE scanning needs CAP_NET_RAW (connecting
/// later does not), so a failure prints one line naming the cause and the fix.
struct ScanCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "scan",
    abstract: "List nearby clips (BLE, or USB serial with --serial) as --source values.",
    discussion: """
      BLE: runs an active LE scan on the first usable adapter (one that is up
      and not held by another process; --adapter N for hciN)
      and prints one line per clip, strongest first:
        ble:C0:11:22:33:44:55/random  -67 dBm  LiftBuddy  [6E400001-…]
      A clip is recognised by its Nordic UART, RedBearLab or HM-10 (FFE0)
      service or by its name; --all lists every advertiser. Needs CAP_NET_RAW
      (root) and collides with a discovery bluetoothd is running.
      --serial lists the USB serial devices that serial:auto would consider.
      """)

  @Option(help: "How long to scan, in seconds.")
  var seconds: Int = 5

  @Option(help: "The adapter number N of hciN (default: the first usable one).")
  var adapter: Int32?

  @Flag(help: "List every BLE advertiser, not only clips.")
  var all = false

  @Flag(help: "List USB serial clip candidates (udev) instead of scanning BLE.")
  var serial = false

  func run() async throws {
    if serial {
      try listSerial()
      return
    }
    let devices: [ScannedDevice]
    do {
      let chosen = try HciAdapter.choose(adapter)
      FileHandle.standardError.write(
        Data("liftbuddy scan: scanning \(seconds) s on \(chosen)\n".utf8))
      devices = try await HciLeScanner.collect(for: .seconds(seconds), deviceID: chosen.id)
    } catch {
      throw failure("liftbuddy scan: \(error)")
    }
    let matcher = ClipAdvertisementMatcher()
    let shown = all ? devices : devices.filter(matcher.matches)
    if shown.isEmpty {
      throw failure("liftbuddy scan: \(BluetoothError.noClipFound(seconds: seconds))")
    }
    for device in shown {
      let rssi = device.rssi.map { "\($0) dBm" } ?? "? dBm"
      let services =
        device.serviceUUIDs.isEmpty
        ? "" : "  [\(device.serviceUUIDs.map(\.description).joined(separator: ", "))]"
      let clip = all && matcher.matches(device) ? "  (clip)" : ""
      print("\(device.target)  \(rssi)  \(device.name ?? "-")\(services)\(clip)")
    }
  }

  private func listSerial() throws {
    let candidates: [SerialClipMatch]
    do {
      candidates = SerialClipMatcher().candidates(try UdevTtyEnumerator.devices())
    } catch {
      throw failure("liftbuddy scan: \(error)")
    }
    if candidates.isEmpty {
      throw failure(
        "liftbuddy scan: no USB serial clip found (no CH340, CP210x, FTDI or Arduino tty); is it plugged in? See `dmesg` for the device"
      )
    }
    for match in candidates {
      print("serial:\(match.device.devnode)  \(match)")
    }
  }

  /// The one-line reason on standard error, and a non-zero exit status.
  private func failure(_ line: String) -> ExitCode {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    return .failure
  }
}
