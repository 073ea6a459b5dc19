/// The GATT attribute types discovery asks for (Core Spec Vol 3 Part G §3.1,
/// §3.3; values from the Assigned Numbers document).
public enum GattAttributeType {
  /// «Primary Service», the group type of Read By Group Type in §4.4.1.
  public static let primaryService = BluetoothUUID(0x2800)
  /// «Characteristic», the type of Read By Type in §4.6.1.
  public static let characteristic = BluetoothUUID(0x2803)
  /// Client Characteristic Configuration descriptor (§3.3.3.3): writing 0x0001
  /// enables notifications, 0x0002 indications.
  public static let clientCharacteristicConfiguration = BluetoothUUID(0x2902)
}
