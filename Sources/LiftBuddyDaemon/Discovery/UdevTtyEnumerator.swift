import CUdev

#if canImport(Glibc)
  import Glibc
#endif

/// Lists the tty devices udev knows, with the USB identity of the device each
/// hangs off. Works without a running udevd: libudev reads /sys directly, and
/// the USB IDs fall back from udev properties to the usb_device's sysattrs.
public enum UdevTtyEnumerator {
  /// Every tty with a device node. `usbOnly` drops virtual consoles, ptys and
  /// on-board UARTs, which can never be the clip.
  public static func devices(usbOnly: Bool = true) throws(UdevError) -> [SerialDeviceInfo] {
    guard let udev = udev_new() else { throw UdevError("udev_new", errno: errno) }
    defer { udev_unref(udev) }
    guard let enumerate = udev_enumerate_new(udev) else {
      throw UdevError("udev_enumerate_new", errno: errno)
    }
    defer { udev_enumerate_unref(enumerate) }
    udev_enumerate_add_match_subsystem(enumerate, "tty")
    let status = udev_enumerate_scan_devices(enumerate)
    if status < 0 { throw UdevError("scanning the tty subsystem", errno: -status) }

    var found: [SerialDeviceInfo] = []
    var entry = udev_enumerate_get_list_entry(enumerate)
    while let current = entry {
      entry = udev_list_entry_get_next(current)
      guard let path = udev_list_entry_get_name(current),
        let device = udev_device_new_from_syspath(udev, path)
      else { continue }
      defer { udev_device_unref(device) }
      guard let info = info(for: device), !usbOnly || info.usbID != nil else { continue }
      found.append(info)
    }
    return found
  }

  /// Reads one `struct udev_device *` of the tty subsystem; nil without a devnode.
  static func info(for device: OpaquePointer) -> SerialDeviceInfo? {
    guard let devnode = string(udev_device_get_devnode(device)),
      let sysPath = string(udev_device_get_syspath(device))
    else { return nil }
    // Owned by `device`; not to be unreferenced.
    let usb = udev_device_get_parent_with_subsystem_devtype(device, "usb", "usb_device")
    var usbID = UsbDeviceID(
      vendor: property(device, "ID_VENDOR_ID"), product: property(device, "ID_MODEL_ID"))
    if usbID == nil, let usb {
      usbID =
        UsbDeviceID(vendor: property(usb, "ID_VENDOR_ID"), product: property(usb, "ID_MODEL_ID"))
        ?? UsbDeviceID(vendor: sysattr(usb, "idVendor"), product: sysattr(usb, "idProduct"))
    }
    return SerialDeviceInfo(
      devnode: devnode, sysPath: sysPath, usbID: usbID,
      product: usb.flatMap { sysattr($0, "product") },
      clipProperty: property(device, SerialDeviceInfo.clipPropertyName))
  }

  private static func property(_ device: OpaquePointer, _ name: String) -> String? {
    string(udev_device_get_property_value(device, name))
  }

  private static func sysattr(_ device: OpaquePointer, _ name: String) -> String? {
    string(udev_device_get_sysattr_value(device, name))
  }

  private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map { String(cString: $0) }
  }
}
