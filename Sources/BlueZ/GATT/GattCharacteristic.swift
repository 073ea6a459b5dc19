/// A characteristic as found by Discover All Characteristics of a Service
/// (Core Spec Vol 3 Part G §4.6.1), decoded from its declaration
/// (§3.3.1: properties, value handle, UUID).
public struct GattCharacteristic: Hashable, Sendable {
  public var declarationHandle: UInt16
  public var properties: CharacteristicProperties
  public var valueHandle: UInt16
  public var uuid: BluetoothUUID

  public init(
    declarationHandle: UInt16, properties: CharacteristicProperties, valueHandle: UInt16,
    uuid: BluetoothUUID
  ) {
    self.declarationHandle = declarationHandle
    self.properties = properties
    self.valueHandle = valueHandle
    self.uuid = uuid
  }

  /// Decodes a Read By Type Response element for type 0x2803: 1 byte of
  /// properties, 2 of value handle, then a 2- or 16-byte UUID (§3.3.1).
  public init(declaration: AttAttributeData) throws(AttDecodingError) {
    let value = declaration.value
    let op = AttOpcode.readByTypeResponse.rawValue
    guard value.count == 5 || value.count == 19 else {
      throw .badLength(
        opcode: op, detail: "characteristic declaration of \(value.count) bytes (must be 5 or 19)")
    }
    guard let uuid = BluetoothUUID(littleEndian: value[3...]) else {
      throw .badLength(opcode: op, detail: "characteristic UUID")
    }
    self.init(
      declarationHandle: declaration.handle,
      properties: CharacteristicProperties(rawValue: value[0]),
      valueHandle: UInt16(value[1]) | UInt16(value[2]) << 8,
      uuid: uuid)
  }

  /// The declaration's value as a server stores it.
  public var declarationValue: [UInt8] {
    var out: [UInt8] = [properties.rawValue]
    out.appendLittleEndian(valueHandle)
    out += uuid.littleEndianBytes
    return out
  }
}
