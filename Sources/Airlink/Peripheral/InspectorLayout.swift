import AirlinkCore

/// The Inspector GATT layout, version 1: the service, the characteristic UUIDs that carry each value's
/// type and the encoding's version, and the advertising marker (Docs/Inspector.md).
///
/// - Service: `6E1A0000-0000-4C3E-9D2B-41524C494E4B`.
/// - Value characteristic: `6E1AVVTT-IIII-4C3E-9D2B-41524C494E4B`: `VV` the encoding's version (01),
///   `TT` the ``InspectedType`` code, `IIII` the value's index (in the order inspected). Its User
///   Description (0x2901) is the identifier; its Presentation Format (0x2904) tells generic tools the format.
/// - Advertising: the local name and manufacturer data under company 0xFFFF (reserved for tests and
///   prototypes) starting with `AL` and the version: `FF FF 41 4C 01`.
public enum InspectorLayout {
    /// The encoding's version.
    public static let version: UInt8 = 1
    /// The UUID of the inspector service, which holds an inspector's values as characteristics.
    public static let serviceUUID = BluetoothUUID(value: 0x6E1A_0000_0000_4C3E_9D2B_4152_4C49_4E4B)
    /// The advertising marker's company identifier (0xFFFF: for tests and prototypes).
    public static let companyID: UInt16 = 0xFFFF
    /// The advertising marker's data: `AL` and the version.
    public static let marker: [UInt8] = [0x41, 0x4C, version]
    /// The longest advertised name, in UTF-8 bytes (what fits beside the flags and the marker in 31 bytes).
    public static let maximumNameLength = 19
    /// The longest identifier, in UTF-8 bytes: a User Description is an attribute value of at most 512
    /// bytes (Core Spec Vol 3, Part F, 3.2.9).
    public static let maximumIdentifierLength = 512
    /// The most values one inspector holds (the index field and the handle space allow more; a GATT
    /// database of 5 attributes per value stays under 0xFFFF handles).
    public static let maximumValueCount = 4096

    /// The characteristic UUID of the value at `index` with type `type`.
    public static func characteristicUUID(index: Int, type: InspectedType) -> BluetoothUUID {
        let high = UInt128(0x6E1A) << 112 | UInt128(version) << 104 | UInt128(type.code) << 96
        return BluetoothUUID(value: high | UInt128(UInt16(index)) << 80 | (serviceUUID.value & ((1 << 80) - 1)))
    }

    /// The version, type and index a characteristic UUID carries, or `nil` if it is not an inspector value.
    public static func parse(_ uuid: BluetoothUUID) -> (version: UInt8, type: InspectedType, index: Int)? {
        let value = uuid.value
        guard value >> 112 == 0x6E1A, value & ((1 << 80) - 1) == serviceUUID.value & ((1 << 80) - 1) else {
            return nil
        }
        let version = UInt8(truncatingIfNeeded: value >> 104)
        guard version != 0 else { return nil }
        return (
            version, InspectedType(code: UInt8(truncatingIfNeeded: value >> 96)),
            Int(UInt16(truncatingIfNeeded: value >> 80))
        )
    }

    /// Whether an advertisement carries the inspector marker.
    public static func isInspector(_ advertisement: Advertisement) -> Bool {
        advertisement.manufacturerData.contains { $0.companyID == companyID && $0.data.starts(with: marker.prefix(2)) }
    }

    /// The Characteristic Presentation Format value (0x2904) for a type: format, exponent 0, unit
    /// "unitless" (0x2700), namespace Bluetooth SIG (0x01), description 0 (Vol 3, Part G, 3.3.3.5).
    public static func presentationFormat(for type: InspectedType) -> [UInt8] {
        [type.presentationFormat, 0x00, 0x00, 0x27, 0x01, 0x00, 0x00]
    }
}
