import LiftBuddyCore
import NIOCore
import NIOHTTP1

/// Decides a command posted by a page: parsed by the socket protocol's own
/// `CommandParser` (same validation, same error messages), answered with the
/// socket protocol's `ack` and `error` objects.
///
/// Reading (`status`, `version`) is open; steering (`set`, `start_set`,
/// `end_set`) needs the pairing code. After a wrong code every steering
/// command is refused for a second, so guessing a six-digit code over the
/// network takes days, not minutes.
actor WebCommandGate {
  struct Answer: Sendable {
    var status: HTTPResponseStatus
    var body: ByteBuffer
  }

  static let lockout = Duration.seconds(1)

  private let control: any DaemonControl
  private let pairingCode: PairingCode
  private let release: String
  private let clock = ContinuousClock()
  private var lockedUntil: ContinuousClock.Instant?
  private(set) var refused = 0

  init(control: any DaemonControl, pairingCode: PairingCode, release: String) {
    self.control = control
    self.pairingCode = pairingCode
    self.release = release
  }

  func answer(_ line: [UInt8], pairingCode candidate: String?) async -> Answer {
    let command: ClientCommand
    switch CommandParser.parse(line) {
    case .failure(let error):
      return Answer(status: .badRequest, body: WireEncoder.error(error.message))
    case .success(let c): command = c
    }
    let control: ControlCommand
    switch command {
    case .status:
      return Answer(status: .ok, body: WireEncoder.status(await self.control.currentStatus()))
    case .version: return Answer(status: .ok, body: WireEncoder.version(release: release))
    case .watch:
      return Answer(
        status: .badRequest,
        body: WireEncoder.error("watch is for the socket; a page gets events from /events"))
    case .set(let exercise, let loadKg): control = .setNext(exercise: exercise, loadKg: loadKg)
    case .startSet: control = .startSet
    case .endSet: control = .endSet
    }
    if let lockedUntil, clock.now < lockedUntil {
      refused += 1
      return Answer(
        status: .tooManyRequests,
        body: WireEncoder.error("a wrong pairing code was sent just now; try again in a second"))
    }
    guard pairingCode.matches(candidate) else {
      refused += 1
      lockedUntil = clock.now + Self.lockout
      let message =
        candidate == nil ? "pairing code required (X-Pairing-Code)" : "wrong pairing code"
      return Answer(status: .forbidden, body: WireEncoder.error(message))
    }
    if let error = await self.control.perform(control) {
      return Answer(status: .conflict, body: WireEncoder.error(error))
    }
    return Answer(status: .ok, body: WireEncoder.ack(command))
  }
}
