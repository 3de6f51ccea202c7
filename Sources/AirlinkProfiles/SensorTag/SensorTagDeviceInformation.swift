import AirlinkCore

/// The Device Information service (0x180A) values of a CC2541 SensorTag.
///
/// Sources: TI's `SensorTag.c` (BLE-CC254x) for the System ID, built from the tag's own address; TI's
/// `devinfoservice.c` for the IEEE 11073 certification ("experimental" body 0xFE) and the PnP ID (vendor
/// source 1 = Bluetooth SIG, vendor 0x000D = Texas Instruments, product 0x0000, version 0x0110); the
/// SensorTag attribute tables for the strings ("Texas Instruments", "N.A." where the firmware has nothing to
/// say). TI builds write the firmware revision as `<version> (<build date>)`, for example `1.01 (Mar 13 2015)`
/// on the CC2650; the build date of a 1.5 CC2541 image is not reproduced here, so the default is `"1.5"`.
/// The CC2650 sends its strings with a trailing NUL; these values have none.
public struct SensorTagDeviceInformation: Hashable, Sendable {
    /// System ID (0x2A23), 8 bytes.
    public var systemID: [UInt8]
    /// Model Number String (0x2A24).
    public var modelNumber: String
    /// Serial Number String (0x2A25).
    public var serialNumber: String
    /// Firmware Revision String (0x2A26).
    public var firmwareRevision: String
    /// Hardware Revision String (0x2A27).
    public var hardwareRevision: String
    /// Software Revision String (0x2A28).
    public var softwareRevision: String
    /// Manufacturer Name String (0x2A29).
    public var manufacturerName: String
    /// IEEE 11073-20601 Regulatory Certification Data List (0x2A2A).
    public var regulatoryCertification: [UInt8]
    /// PnP ID (0x2A50), 7 bytes: vendor ID source, vendor ID, product ID, product version (little-endian).
    public var pnpID: [UInt8]

    /// The UUID of the IEEE 11073-20601 Regulatory Certification Data List characteristic, 0x2A2A.
    public static let regulatoryCertificationUUID = BluetoothUUID(0x2A2A)

    /// The values of a CC2541 SensorTag with firmware 1.5 at this address.
    ///
    /// - Parameters:
    ///   - address: the tag's public address; the System ID is made from it.
    ///   - firmwareRevision: the firmware revision string, `"1.5"` by default.
    public static func cc2541(address: BDAddress, firmwareRevision: String = "1.5") -> SensorTagDeviceInformation {
        SensorTagDeviceInformation(
            systemID: systemID(for: address), modelNumber: "N.A.", serialNumber: "N.A.",
            firmwareRevision: firmwareRevision, hardwareRevision: "N.A.", softwareRevision: "N.A.",
            manufacturerName: "Texas Instruments",
            regulatoryCertification: [0xFE, 0x00] + Array("experimental".utf8),
            pnpID: [0x01, 0x0D, 0x00, 0x00, 0x00, 0x10, 0x01])
    }

    /// The System ID TI's firmware derives from an address: its three low bytes, two zero bytes, then its
    /// three high bytes, least significant first (`SensorTag.c`, `GAPROLE_STARTED`).
    ///
    /// `C0:FF:EE:00:00:01` gives `01 00 00 00 00 EE FF C0`.
    ///
    /// - Parameter address: the tag's address.
    public static func systemID(for address: BDAddress) -> [UInt8] {
        let bytes = address.littleEndianBytes
        return Array(bytes[0..<3]) + [0x00, 0x00] + Array(bytes[3..<6])
    }

    /// Every characteristic with its value, in the order of the firmware's attribute table.
    public var characteristics: [(uuid: BluetoothUUID, value: [UInt8])] {
        [
            (.systemID, systemID),
            (.modelNumberString, modelNumber.gattBytes),
            (.serialNumberString, serialNumber.gattBytes),
            (.firmwareRevisionString, firmwareRevision.gattBytes),
            (.hardwareRevisionString, hardwareRevision.gattBytes),
            (.softwareRevisionString, softwareRevision.gattBytes),
            (.manufacturerNameString, manufacturerName.gattBytes),
            (Self.regulatoryCertificationUUID, regulatoryCertification),
            (.pnpID, pnpID),
        ]
    }
}
