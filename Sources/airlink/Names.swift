import AirlinkCore
import AirlinkProfiles

/// Names for UUIDs in output: the SIG's assigned numbers, the built-in world's and the SensorTag's vendor
/// UUIDs, the vendors' published names, and TI's base for the rest of TI's.
enum Names {
    /// The UUID's name, or `unknown`.
    static func name(_ uuid: BluetoothUUID) -> String {
        uuid.name ?? VendorNames.builtIn[uuid] ?? uuid.vendorName ?? VendorNames.base(of: uuid) ?? "unknown"
    }

    /// `UUID (Name)`.
    static func labelled(_ uuid: BluetoothUUID) -> String { "\(uuid) (\(name(uuid)))" }

    /// `Apple, Inc.`, or `unknown company` for an identifier the SIG's list does not hold.
    static func company(_ identifier: UInt16) -> String {
        CompanyIdentifiers.name(of: identifier) ?? "unknown company"
    }
}
