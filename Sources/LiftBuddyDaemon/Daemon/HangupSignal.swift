import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// SIGHUP as an async sequence: one element per signal (signals that arrive
/// while one is being handled are coalesced, as the kernel does anyway).
public enum HangupSignal {
  public static func stream() -> AsyncStream<Void> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: Void.self, bufferingPolicy: .bufferingNewest(1))
    signal(SIGHUP, SIG_IGN)
    let box = SignalSourceBox(DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global()))
    box.source.setEventHandler { continuation.yield() }
    continuation.onTermination = { _ in box.source.cancel() }
    box.source.resume()
    return stream
  }
}

/// A dispatch source is thread-safe (its methods may be called from any
/// thread); the box only tells the compiler so.
private final class SignalSourceBox: @unchecked Sendable {
  let source: any DispatchSourceSignal
  init(_ source: any DispatchSourceSignal) { self.source = source }
}
