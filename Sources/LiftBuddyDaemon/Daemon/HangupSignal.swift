import UnixSignals

/// SIGHUP as an async sequence, from swift-service-lifecycle's
/// `UnixSignals`: one element per signal (signals that arrive while one is
/// being handled are coalesced, as the kernel does anyway).
public enum HangupSignal {
  public static func stream() async -> UnixSignalsSequence {
    await UnixSignalsSequence(trapping: .sighup)
  }
}
