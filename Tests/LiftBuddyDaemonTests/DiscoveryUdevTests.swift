import Foundation
import Testing

@testable import LiftBuddyDaemon

/// libudev for real: this machine has ttys (virtual consoles, serial ports) but
/// probably no USB serial adapter, so the USB-only list is likely empty.
@Suite struct DiscoveryUdevTests {
  @Test func enumeratesTheTtySubsystem() throws {
    let all = try UdevTtyEnumerator.devices(usbOnly: false)
    print("udev: \(all.count) tty devices, e.g. \(all.prefix(3).map(\.devnode))")
    #expect(!all.isEmpty, "a Linux machine always has /sys/class/tty entries with a DEVNAME")
    for device in all {
      #expect(device.devnode.hasPrefix("/dev/"))
      #expect(FileManager.default.fileExists(atPath: device.sysPath), "\(device.sysPath)")
      #expect(
        FileManager.default.fileExists(atPath: "/sys/class/tty/" + device.devnode.dropFirst(5)))
    }
    // /dev/tty (the controlling terminal) is a tty-subsystem device without a USB parent.
    #expect(all.contains { $0.devnode == "/dev/tty" && $0.usbID == nil })
  }

  @Test func usbSerialDevicesHaveIDsAndNodes() throws {
    let usb = try UdevTtyEnumerator.devices()
    let matches = SerialClipMatcher().candidates(usb)
    print("udev: \(usb.count) USB tty devices; clip candidates: \(matches.map(\.description))")
    for device in usb {
      #expect(device.usbID != nil)
      #expect(FileManager.default.fileExists(atPath: device.devnode), "\(device.devnode)")
    }
  }
}
