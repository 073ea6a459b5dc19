import BlueZ

/// The clip over Bluetooth LE (`ble:AA:BB:CC:DD:EE:FF[/random]` or `ble:auto`).
///
/// Each attempt connects an L2CAP socket on the ATT channel, finds the UART
/// service and subscribes (see `UartSubscription`), then forwards every
/// notification as raw bytes: the pipeline's line framer handles lines split
/// across notifications. When the link drops the source reports `.lost` with
/// the reason and reconnects with the same backoff as the serial source.
/// Blocking socket work runs on dedicated threads, never on the cooperative pool.
///
/// `ble:auto` scans (needs CAP_NET_RAW) only until it has found a clip; it then
/// reconnects to that address, which needs no capability, and scans again only
/// if connecting to it fails.
public struct BLESource: ClipSource {
  /// Opens the ATT bearer; injectable so the reconnect logic can be tested
  /// over a socketpair on a kernel without Bluetooth.
  public typealias Connector = @Sendable (BluetoothAddress, LEAddressType) throws -> AttBearer
  /// Finds a clip for `ble:auto`.
  public typealias Finder = @Sendable () async throws -> ScannedDevice

  public let name: String
  public let hints = SourceHints(timing: .live)
  private let target: BleTarget
  private let backoff: Backoff
  private let transactionTimeout: Duration
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
    connect: @escaping Connector = { try L2capAttSocket.connect(to: $0, type: $1) },
    find: @escaping Finder = { try await BLESource.scanForClip(seconds: 5) }
  ) {
    self.name = target.description
    self.target = target
    self.backoff = backoff
    self.transactionTimeout = transactionTimeout
    self.connect = connect
    self.find = find
  }

  public func events(clock: SourceClock) -> AsyncStream<SourceEvent> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: SourceEvent.self, bufferingPolicy: .unbounded)
    let task = Task {
      await run(clock: clock, out: continuation)
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    return stream
  }

  /// Connect, stream, back off, again — until cancelled.
  private func run(clock: SourceClock, out: AsyncStream<SourceEvent>.Continuation) async {
    var backoff = self.backoff
    var known: (BluetoothAddress, LEAddressType)?
    if case .address(let address, let type) = target { known = (address, type) }
    var lastFailure: String?
    while !Task.isCancelled {
      let failure: String
      do {
        let (address, type) = try await resolve(known)
        known = (address, type)
        let subscription = try await subscribe(address, type)
        backoff.reset()
        lastFailure = nil
        out.yield(
          .status(
            .connected(
              detail:
                "\(BleTarget.address(address, type)) \(subscription.known.name) characteristic \(subscription.characteristic.uuid), ATT MTU \(subscription.mtu)"
            )))
        do {
          for try await chunk in subscription.bytes { out.yield(.bytes(chunk, at: clock.now())) }
          if Task.isCancelled { return }
          failure = "the notification stream ended"
        } catch {
          failure = "\(error)"
        }
        out.yield(.status(.lost(reason: failure)))
      } catch {
        if Task.isCancelled { return }
        failure = "\(error)"
        // Said once; the same failure every 8 s would flood the log and the clients.
        if failure != lastFailure { out.yield(.status(.lost(reason: failure))) }
        if target == .auto { known = nil }
      }
      lastFailure = failure
      let delay = backoff.take()
      out.yield(.status(.retrying(inSeconds: delay)))
      do { try await Task.sleep(for: .seconds(delay)) } catch { return }
    }
  }

  private func resolve(_ known: (BluetoothAddress, LEAddressType)?) async throws -> (
    BluetoothAddress, LEAddressType
  ) {
    if let known { return known }
    let device = try await find()
    return (device.address, device.addressType)
  }

  private func subscribe(_ address: BluetoothAddress, _ type: LEAddressType) async throws
    -> UartSubscription
  {
    let connect = self.connect
    let timeout = transactionTimeout
    return try await DedicatedThread.run(name: "liftbuddy-ble-connect") {
      let bearer = try connect(address, type)
      return try UartSubscription.start(on: GattClient(bearer: bearer, transactionTimeout: timeout))
    }
  }

  /// The strongest clip seen in `seconds` of scanning.
  public static func scanForClip(seconds: Int) async throws -> ScannedDevice {
    let matcher = ClipAdvertisementMatcher()
    let devices = try await HciLeScanner.collect(for: .seconds(seconds))
    guard let clip = devices.first(where: { matcher.matches($0) && $0.connectable }) else {
      throw BluetoothError.noClipFound(seconds: seconds)
    }
    return clip
  }
}
