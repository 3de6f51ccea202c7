import AirlinkCore

/// The values of a Device Information Service 1.1 (0x180A): strings as UTF-8 without terminator,
/// System ID and PnP ID as ``SystemID`` and ``PnPID``.
public struct DeviceInformation: Sendable, Hashable {
    /// Manufacturer Name String (0x2A29).
    public var manufacturer: String
    /// Model Number String (0x2A24).
    public var model: String
    /// Serial Number String (0x2A25).
    public var serialNumber: String
    /// Firmware Revision String (0x2A26).
    public var firmwareRevision: String
    /// Hardware Revision String (0x2A27).
    public var hardwareRevision: String
    /// Software Revision String (0x2A28).
    public var softwareRevision: String
    /// System ID (0x2A23).
    public var systemID: SystemID
    /// PnP ID (0x2A50).
    public var pnpID: PnPID

    /// Creates the values.
    public init(
        manufacturer: String, model: String, serialNumber: String, firmwareRevision: String,
        hardwareRevision: String, softwareRevision: String, systemID: SystemID, pnpID: PnPID
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.serialNumber = serialNumber
        self.firmwareRevision = firmwareRevision
        self.hardwareRevision = hardwareRevision
        self.softwareRevision = softwareRevision
        self.systemID = systemID
        self.pnpID = pnpID
    }

    /// The values of Airlink's simulated sensors.
    public static let airlinkSensor = DeviceInformation(
        manufacturer: "Airlink", model: "SIM-1", serialNumber: "0001", firmwareRevision: "1.0.0",
        hardwareRevision: "A", softwareRevision: "1.0",
        systemID: SystemID(manufacturerIdentifier: 0x00_0000_0001, organizationallyUniqueIdentifier: 0xB4_77E2),
        pnpID: PnPID(vendorIDSource: .bluetoothSIG, vendorID: 0x05F1, productID: 0x0001, productVersion: 0x0100))
}

extension Service {
    /// The Device Information Service (0x180A) with every characteristic read-only.
    public static func deviceInformation(_ information: DeviceInformation) -> Service {
        Service(.deviceInformation) {
            Characteristic(.manufacturerNameString, properties: .read, value: information.manufacturer)
            Characteristic(.modelNumberString, properties: .read, value: information.model)
            Characteristic(.serialNumberString, properties: .read, value: information.serialNumber)
            Characteristic(.firmwareRevisionString, properties: .read, value: information.firmwareRevision)
            Characteristic(.hardwareRevisionString, properties: .read, value: information.hardwareRevision)
            Characteristic(.softwareRevisionString, properties: .read, value: information.softwareRevision)
            Characteristic(.systemID, properties: .read, value: information.systemID)
            Characteristic(.pnpID, properties: .read, value: information.pnpID)
        }
    }
}
