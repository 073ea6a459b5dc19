/// The `DaemonControl` of a web view with no clip behind it (`liftbuddy
/// coach`): nothing to steer, and a status that says so. Steering a rack is
/// done at that rack's own page, with its pairing code.
public struct NoClipControl: DaemonControl {
  public let source: String

  public init(source: String) { self.source = source }

  public func perform(_ command: ControlCommand) async -> String? {
    "this is a coach's room view with no clip; steer a rack from its own page"
  }

  public func currentStatus() async -> DaemonStatus {
    DaemonStatus(state: .connected, source: source, message: "coach's room view", t: 0)
  }
}
