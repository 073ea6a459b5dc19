import NIOCore
import NIOPosix

/// The clip on a USB serial port (`serial:/dev/ttyUSB0`, or `serial:auto`
/// through udev discovery).
///
/// The port is read on an event loop (`SerialLoopReader`): the consumer's
/// own when it runs on one (the daemon's socket server: one wake-up per
/// chunk), else one of NIO's shared loops (`liftbuddy record`), never the
/// cooperative pool, where a blocked read could starve the pipeline. When
/// the device goes away (unplug: EIO or hang-up; EOF) the source reports it
/// and tries again with exponential backoff, 0.5 s up to 8 s, resolving the
/// device path anew each time, so that a re-plugged clip (or a udev symlink
/// pointing at a new node) is picked up.
public struct SerialSource: ClipSource {
  /// Finds the device to open; called before every attempt.
  public typealias Locator = @Sendable () throws -> String

  public let name: String
  public let hints = SourceHints(timing: .live)
  private let locate: Locator
  private let baud: Int
  private let backoff: Backoff

  /// A fixed device path.
  public init(path: String, baud: Int = 115_200, backoff: Backoff = Backoff()) {
    self.init(name: "serial:\(path)", baud: baud, backoff: backoff) { path }
  }

  /// A device found again at each attempt (`serial:auto`).
  public init(
    name: String, baud: Int = 115_200, backoff: Backoff = Backoff(), locate: @escaping Locator
  ) {
    self.name = name
    self.locate = locate
    self.baud = baud
    self.backoff = backoff
  }

  public func start(clock: SourceClock, output: SourceOutput) {
    SerialLoopReader.start(
      on: output.eventLoop ?? MultiThreadedEventLoopGroup.singleton.next(), locate: locate,
      baud: baud, backoff: backoff, clock: clock, out: output)
  }
}
