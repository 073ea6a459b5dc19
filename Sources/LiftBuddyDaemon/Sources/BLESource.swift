import BlueZ
import NIOCore
import NIOPosix

/// The clip over Bluetooth LE: `ble:AA:BB:CC:DD:EE:FF[/random]` or `ble:auto`,
/// optionally through a named adapter (`ble:hci1/auto`, `ble:hci0/ADDRESS`).
///
/// Each attempt first picks the local adapter (`HciAdapter.choose`: the named
/// one, or the first that is up and not held by another process), then
/// connects an L2CAP socket on the ATT channel bound to that adapter, finds the
/// UART service and subscribes (see `UartSubscription`), then forwards every
/// notification as raw bytes: the pipeline's line framer handles lines split
/// across notifications. The connected status names the adapter, so the log
/// says which one is in use. When the link drops the source reports `.lost`
/// with the reason and reconnects with the same backoff as the serial source.
/// Connecting, discovery and the subscription block (request/response) and
/// run on dedicated threads, never on the cooperative pool; the notifications
/// are then read on an event loop (`BLELoopReader`): the consumer's own when
/// it runs on one (the daemon's socket server: one wake-up per
/// notification), else one of NIO's shared loops.
///
/// `ble:auto` scans (needs CAP_NET_RAW) only until it has found a clip; it then
/// reconnects to that address, which needs no capability, and scans again only
/// if connecting to it fails.
public struct BLESource: ClipSource {
  /// Picks the local adapter for one attempt; injectable so the reconnect
  /// logic can be tested on a kernel without Bluetooth.
  public typealias AdapterChooser = @Sendable (_ preferred: Int32?) throws -> HciAdapter
  /// Opens the ATT bearer through the adapter; injectable so the reconnect
  /// logic can be tested over a socketpair.
  public typealias Connector =
    @Sendable (BluetoothAddress, LEAddressType, HciAdapter) throws ->
    AttBearer
  /// Finds a clip for `ble:auto` by scanning on the adapter.
  public typealias Finder = @Sendable (HciAdapter) async throws -> ScannedDevice

  public let name: String
  public let hints = SourceHints(timing: .live)
  private let target: BleTarget
  private let backoff: Backoff
  private let transactionTimeout: Duration
  private let chooseAdapter: AdapterChooser
  private let connect: Connector
  private let find: Finder

  /// `address` is what follows `ble:` in the source spec.
  public init(address: String, backoff: Backoff = Backoff()) throws {
    guard let target = BleTarget(address) else {
      throw BluetoothError.invalidTarget("ble:\(address)")
    }
    self.init(target: target, backoff: backoff)
  }

  public init(
    target: BleTarget, backoff: Backoff = Backoff(), transactionTimeout: Duration = .seconds(30),
    chooseAdapter: @escaping AdapterChooser = { try HciAdapter.choose($0) },
    connect: @escaping Connector = {
      try L2capAttSocket.connect(to: $0, type: $1, from: $2.address)
    },
    find: @escaping Finder = { try await BLESource.scanForClip(seconds: 5, adapter: $0.id) }
  ) {
    self.name = target.description
    self.target = target
    self.backoff = backoff
    self.transactionTimeout = transactionTimeout
    self.chooseAdapter = chooseAdapter
    self.connect = connect
    self.find = find
  }

  public func start(clock: SourceClock, output: SourceOutput) {
    let loop = output.eventLoop ?? MultiThreadedEventLoopGroup.singleton.next()
    let task = Task {
      await run(clock: clock, out: output, loop: loop)
      output.finish()
    }
    output.onClose { task.cancel() }
  }

  /// Connect, stream, back off, again — until cancelled.
  private func run(clock: SourceClock, out: SourceOutput, loop: any EventLoop) async {
    var backoff = self.backoff
    var known: (BluetoothAddress, LEAddressType)?
    if case .address(let address, let type) = target.peer { known = (address, type) }
    var lastFailure: String?
    while !Task.isCancelled {
      let failure: String
      do {
        let adapter = try chooseAdapter(target.adapter)
        let (address, type) = try await resolve(known, on: adapter)
        known = (address, type)
        let subscription = try await subscribe(address, type, via: adapter)
        backoff.reset()
        lastFailure = nil
        out.yield(
          .status(
            .connected(
              detail:
                "\(BleTarget.address(address, type)) via \(adapter) \(subscription.known.name) characteristic \(subscription.characteristic.uuid), ATT MTU \(subscription.mtu)"
            )))
        failure = await BLELoopReader.read(
          subscription.notifications, on: loop, clock: clock, out: out)
        if Task.isCancelled { return }
        out.yield(.status(.lost(reason: failure)))
      } catch {
        if Task.isCancelled { return }
        failure = "\(error)"
        // Said once; the same failure every 8 s would flood the log and the clients.
        if failure != lastFailure { out.yield(.status(.lost(reason: failure))) }
        if target.peer == .auto { known = nil }
      }
      lastFailure = failure
      let delay = backoff.take()
      out.yield(.status(.retrying(inSeconds: delay)))
      do { try await Task.sleep(for: .seconds(delay)) } catch { return }
    }
  }

  private func resolve(_ known: (BluetoothAddress, LEAddressType)?, on adapter: HciAdapter)
    async throws -> (BluetoothAddress, LEAddressType)
  {
    if let known { return known }
    let device = try await find(adapter)
    return (device.address, device.addressType)
  }

  private func subscribe(
    _ address: BluetoothAddress, _ type: LEAddressType, via adapter: HciAdapter
  )
    async throws -> UartSubscription
  {
    let connect = self.connect
    let timeout = transactionTimeout
    return try await DedicatedThread.run(name: "liftbuddy-ble-connect") {
      let bearer = try connect(address, type, adapter)
      return try UartSubscription.start(on: GattClient(bearer: bearer, transactionTimeout: timeout))
    }
  }

  /// The strongest clip seen in `seconds` of scanning on `hciN`.
  public static func scanForClip(seconds: Int, adapter: Int32) async throws -> ScannedDevice {
    let matcher = ClipAdvertisementMatcher()
    let devices = try await HciLeScanner.collect(for: .seconds(seconds), deviceID: adapter)
    guard let clip = devices.first(where: { matcher.matches($0) && $0.connectable }) else {
      throw BluetoothError.noClipFound(seconds: seconds)
    }
    return clip
  }
}
