import AirlinkCore
import AirlinkProfiles
import Foundation

/// How `airlink scan` prints what it found.
enum ScanOutput {
    /// `0x180F Battery Service` style names, with the thermostat's vendor UUIDs named too.
    static func serviceName(_ uuid: BluetoothUUID) -> String { Names.name(uuid) }

    /// A table for people: ID, NAME, RSSI, SERVICES.
    static func table(_ devices: [ScannedDevice]) -> String {
        guard !devices.isEmpty else { return "No devices found." }
        let rows = devices.map { device in
            [
                device.id.description, device.name ?? "-", "\(device.rssi) dBm",
                device.services.map { "\($0) (\(serviceName($0)))" }.joined(separator: ", "),
            ]
        }
        return Output.table(["ID", "NAME", "RSSI", "SERVICES"], rows)
    }

    /// A JSON array for scripts.
    static func json(_ devices: [ScannedDevice]) -> String {
        struct Service: Encodable {
            var uuid: String
            var name: String
        }
        struct Device: Encodable {
            var id: String
            var name: String?
            var rssi: Int
            var connectable: Bool
            var advertisements: Int
            var services: [Service]
        }
        let values = devices.map { device in
            Device(
                id: device.id.description, name: device.name, rssi: device.rssi, connectable: device.isConnectable,
                advertisements: device.advertisementCount,
                services: device.services.map { Service(uuid: $0.description, name: serviceName($0)) })
        }
        return Output.json(values)
    }
}
