import Foundation
import SystemPackage

#if canImport(Glibc)
  import Glibc
#endif

/// The clip on a USB serial port (`serial:/dev/ttyUSB0`, or `serial:auto`
/// through udev discovery).
///
/// Reading happens on a dedicated thread that waits in poll(2), off the
/// cooperative pool: a blocked read must never starve the pipeline; or, when
/// the consumer runs on an event loop, on that loop (`SerialLoopReader`,
/// one wake-up per chunk instead of two). When the
/// device goes away (unplug: EIO or hang-up; EOF) the source reports it and
/// tries again with exponential backoff, 0.5 s up to 8 s, resolving the
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
    if let loop = output.eventLoop {
      SerialLoopReader.start(
        on: loop, locate: locate, baud: baud, backoff: backoff, clock: clock, out: output)
      return
    }
    let wake: WakePipe
    do {
      wake = try WakePipe()
    } catch {
      output.yield(.status(.lost(reason: "cannot create a wake-up pipe: \(error)")))
      output.finish()
      return
    }
    output.onClose { wake.wake() }
    let reader = SerialReader(
      locate: locate, baud: baud, backoff: backoff, clock: clock, wake: wake, out: output)
    let thread = Thread {
      var reader = reader
      reader.run()
    }
    thread.name = "liftbuddy-serial"
    thread.start()
  }
}

/// The reading thread's loop: open, read until the device goes, back off,
/// again — until the stream is cancelled.
private struct SerialReader: Sendable {
  private let locate: SerialSource.Locator
  private let baud: Int
  private var backoff: Backoff
  private let clock: SourceClock
  private let wake: WakePipe
  private let out: SourceOutput

  init(
    locate: @escaping SerialSource.Locator, baud: Int, backoff: Backoff, clock: SourceClock,
    wake: WakePipe, out: SourceOutput
  ) {
    self.locate = locate
    self.baud = baud
    self.backoff = backoff
    self.clock = clock
    self.wake = wake
    self.out = out
  }

  mutating func run() {
    defer { out.finish() }
    var lastFailure: String?
    while !wake.isWoken {
      let failure: String
      do {
        let path = try locate()
        let fd = try SerialPort.open(path: path, baud: baud)
        backoff.reset()
        lastFailure = nil
        out.yield(.status(.connected(detail: path)))
        failure = readUntilGone(fd)
        try? fd.close()
        out.yield(.status(.lost(reason: failure)))
      } catch {
        failure = "\(error)"
        // Repeating the same failure every 8 s would flood the log and the
        // clients; say it once, keep retrying quietly.
        if failure != lastFailure { out.yield(.status(.lost(reason: failure))) }
      }
      lastFailure = failure
      if wake.isWoken { return }
      let delay = backoff.take()
      out.yield(.status(.retrying(inSeconds: delay)))
      guard wake.sleep(seconds: delay) else { return }
    }
  }

  /// Reads until EOF, an error or a hang-up; returns why it stopped, or
  /// "stopped" when woken.
  private func readUntilGone(_ fd: FileDescriptor) -> String {
    var fds = [
      pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0),
      pollfd(fd: wake.readEnd.rawValue, events: Int16(POLLIN), revents: 0),
    ]
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
    defer { buffer.deallocate() }
    while true {
      fds[0].revents = 0
      fds[1].revents = 0
      let r = poll(&fds, 2, -1)
      if r < 0 {
        if errno == EINTR { continue }
        return "poll failed: \(Errno(rawValue: errno))"
      }
      if fds[1].revents != 0 { return "stopped" }
      let revents = Int32(fds[0].revents)
      if revents & Int32(POLLIN) != 0 {
        let n = read(fd.rawValue, buffer.baseAddress, buffer.count)
        if n > 0 {
          out.yield(.bytes(Array(UnsafeRawBufferPointer(rebasing: buffer[0..<n])), at: clock.now()))
          continue
        }
        if n == 0 { return "end of file (device closed)" }
        let e = errno
        if e == EAGAIN || e == EINTR { continue }
        return
          "device unplugged or failing: \(Errno(rawValue: e)) (\(e == EIO ? "EIO" : String(e)))"
      }
      if revents & Int32(POLLHUP) != 0 { return "device hung up" }
      if revents & Int32(POLLERR | POLLNVAL) != 0 {
        return "device error (poll revents \(revents))"
      }
    }
  }
}
