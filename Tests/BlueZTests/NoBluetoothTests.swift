import BlueZ
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What a user sees when Bluetooth is missing. This kernel has no AF_BLUETOOTH,
/// so these run the real calls and check the real failure; on a machine with
/// Bluetooth the open succeeds and that is checked instead.
@Suite struct NoBluetoothTests {
  @Test func l2capSocketOnThisKernel() throws {
    switch Result(catching: { () throws(BluetoothError) -> Int32 in try L2capAttSocket.openSocket()
    })
    {
    case .success(let fd):
      #expect(fd >= 0)
      close(fd)
    case .failure(let error):
      #expect(error == .system(.openSocket, errno: EAFNOSUPPORT))
      #expect(
        error.description.hasPrefix(
          "Bluetooth is not available: this kernel has no AF_BLUETOOTH support (errno 97 EAFNOSUPPORT"
        ))
    }
  }

  /// Skips, rather than passes, the EAFNOSUPPORT checks on a kernel with Bluetooth.
  static let kernelLacksBluetooth = (try? L2capAttSocket.openSocket()).map { close($0) } == nil

  @Test(.enabled(if: kernelLacksBluetooth, "this kernel has AF_BLUETOOTH"))
  func connectOnThisKernelFailsBeforeTouchingTheAir() async throws {
    await #expect(throws: BluetoothError.system(.openSocket, errno: EAFNOSUPPORT)) {
      _ = try await DedicatedThread.run {
        try L2capAttSocket.connect(to: BluetoothAddress("C0:11:22:33:44:55")!, type: .random)
      }
    }
  }

  @Test(.enabled(if: kernelLacksBluetooth, "this kernel has AF_BLUETOOTH"))
  func hciDeviceOnThisKernel() throws {
    #expect(throws: BluetoothError.system(.openAdapter, errno: EAFNOSUPPORT)) {
      _ = try HciLeScanner()
    }
    #expect(throws: BluetoothError.system(.openAdapter, errno: EAFNOSUPPORT)) {
      _ = try HciLeScanner(deviceID: 0)
    }
  }

  /// Choosing an adapter (ble:auto, ble:hciN/…) says Bluetooth is missing, not
  /// "no adapter": the remedy differs. (In the Debian guest of
  /// scripts/vm-test.sh the same calls pass over a held controller.)
  @Test(.enabled(if: kernelLacksBluetooth, "this kernel has AF_BLUETOOTH"))
  func choosingAnAdapterOnThisKernel() throws {
    #expect(throws: BluetoothError.system(.openAdapter, errno: EAFNOSUPPORT)) {
      _ = try HciAdapter.all()
    }
    #expect(throws: BluetoothError.system(.openAdapter, errno: EAFNOSUPPORT)) {
      _ = try HciAdapter.choose(1)
    }
  }

  /// The other causes, each with its remedy (the errno values are the ones the
  /// kernel and libbluetooth report for them).
  @Test func messagesNameTheCauseAndTheFix() {
    #expect(
      BluetoothError.system(.scan, errno: EPERM).description
        == "scanning needs CAP_NET_RAW (errno 1 EPERM, Operation not permitted): add AmbientCapabilities=CAP_NET_RAW to the unit or run `liftbuddy scan` as root; connecting to a known address (ble:AA:BB:CC:DD:EE:FF) needs no capability"
    )
    #expect(
      BluetoothError.system(.scan, errno: EBUSY).description.contains("bluetoothctl scan off"))
    #expect(
      BluetoothError.system(.scan, errno: EIO).description.contains(
        "bluetoothd is probably scanning"))
    #expect(
      BluetoothError.system(.openAdapter, errno: ENODEV).description.hasPrefix(
        "no Bluetooth adapter found"))
    #expect(
      BluetoothError.system(.connect, errno: ETIMEDOUT).description.contains(
        "address type (public/random)"))
    #expect(
      BluetoothError.system(.openAdapter, errno: ERFKILL).description.contains(
        "rfkill unblock bluetooth"))
    #expect(!BluetoothError.system(.connect, errno: EIO).description.contains("bluetoothd"))
  }
}
