import BlueZ

/// The attribute table of the fake peripheral, laid out the way a real GATT
/// server does it (Core Spec Vol 3 Part G §3): service declaration, then per
/// characteristic its declaration, its value and, if it notifies, a CCCD.
struct GattDatabase {
  struct Attribute {
    var handle: UInt16
    var type: BluetoothUUID
    var value: [UInt8]
    /// For service declarations: the last handle of the service.
    var groupEnd: UInt16?
  }

  private(set) var attributes: [Attribute] = []
  private var next: UInt16 = 1

  /// Every real peripheral starts with the GAP service (0x1800) and its Device Name (0x2A00).
  static func withGAP(name: String = "LiftBuddy") -> GattDatabase {
    var db = GattDatabase()
    db.addService(
      BluetoothUUID(0x1800), characteristics: [(BluetoothUUID(0x2A00), [.read], Array(name.utf8))])
    return db
  }

  /// Adds a primary service; returns the value handles of its characteristics.
  @discardableResult
  mutating func addService(
    _ uuid: BluetoothUUID, characteristics: [(BluetoothUUID, CharacteristicProperties, [UInt8])],
    cccd: Bool = true
  ) -> [UInt16] {
    let serviceIndex = attributes.count
    attributes.append(
      Attribute(handle: take(), type: BluetoothUUID(0x2800), value: uuid.littleEndianBytes))
    var valueHandles: [UInt16] = []
    for (charUUID, properties, initial) in characteristics {
      let declaration = take()
      let valueHandle = take()
      let decl = GattCharacteristic(
        declarationHandle: declaration, properties: properties, valueHandle: valueHandle,
        uuid: charUUID)
      attributes.append(
        Attribute(handle: declaration, type: BluetoothUUID(0x2803), value: decl.declarationValue))
      attributes.append(Attribute(handle: valueHandle, type: charUUID, value: initial))
      if cccd && !properties.isDisjoint(with: [.notify, .indicate]) {
        attributes.append(
          Attribute(handle: take(), type: BluetoothUUID(0x2902), value: [0x00, 0x00]))
      }
      valueHandles.append(valueHandle)
    }
    attributes[serviceIndex].groupEnd = next - 1
    return valueHandles
  }

  private mutating func take() -> UInt16 {
    defer { next += 1 }
    return next
  }

  func inRange(_ range: AttHandleRange) -> [Attribute] {
    attributes.filter { $0.handle >= range.start && $0.handle <= range.end }
  }

  func cccd(after valueHandle: UInt16) -> UInt16? {
    attributes.first { $0.handle > valueHandle && $0.type == BluetoothUUID(0x2902) }?.handle
  }
}
