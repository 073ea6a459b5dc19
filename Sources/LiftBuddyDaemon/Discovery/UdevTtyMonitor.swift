import CUdev
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Watches udev for tty devices coming and going. Listens on the "udev"
/// netlink group, i.e. events after udevd has applied its rules (so the
/// project's LIFTBUDDY_CLIP property is already set); without udevd (a
/// container) the stream simply stays quiet.
public enum UdevTtyMonitor {
  /// Starts listening; the stream ends when the consuming task stops listening.
  /// Throws when the netlink socket cannot be opened (e.g. AF_NETLINK blocked).
  public static func events(pollMilliseconds: Int32 = 250) throws(UdevError) -> AsyncStream<
    SerialDeviceEvent
  > {
    guard let udev = udev_new() else { throw UdevError("udev_new", errno: errno) }
    guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
      let code = errno
      udev_unref(udev)
      throw UdevError("opening the udev monitor", errno: code)
    }
    udev_monitor_filter_add_match_subsystem_devtype(monitor, "tty", nil)
    let status = udev_monitor_enable_receiving(monitor)
    if status < 0 {
      udev_monitor_unref(monitor)
      udev_unref(udev)
      throw UdevError("enabling the udev monitor", errno: -status)
    }

    let (stream, continuation) = AsyncStream.makeStream(of: SerialDeviceEvent.self)
    let running = RunningFlag()
    continuation.onTermination = { _ in running.stop() }
    // libudev objects are not thread-safe: from here on only this thread touches them.
    let handles = MonitorHandles(udev: udev, monitor: monitor)
    let thread = Thread {
      defer {
        udev_monitor_unref(handles.monitor)
        udev_unref(handles.udev)
      }
      var descriptor = pollfd(
        fd: udev_monitor_get_fd(handles.monitor), events: Int16(POLLIN), revents: 0)
      while running.isRunning {
        guard poll(&descriptor, 1, pollMilliseconds) > 0 else { continue }
        guard let device = udev_monitor_receive_device(handles.monitor) else { continue }
        defer { udev_device_unref(device) }
        let action = udev_device_get_action(device).map { String(cString: $0) }
        switch action {
        case "add":
          if let info = UdevTtyEnumerator.info(for: device) { continuation.yield(.added(info)) }
        case "remove":
          let sysPath = udev_device_get_syspath(device).map { String(cString: $0) } ?? ""
          continuation.yield(
            .removed(
              devnode: udev_device_get_devnode(device).map { String(cString: $0) }, sysPath: sysPath
            ))
        default:
          break
        }
      }
      continuation.finish()
    }
    thread.name = "liftbuddy-udev-monitor"
    thread.start()
    return stream
  }

  /// The raw libudev pointers, handed to the monitor thread once and used only there.
  private struct MonitorHandles: @unchecked Sendable {
    let udev: OpaquePointer
    let monitor: OpaquePointer
  }
}
