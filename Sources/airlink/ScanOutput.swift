import AirlinkCore
import AirlinkProfiles
import Foundation

/// How `airlink scan` prints what it found.
enum ScanOutput {
    /// `0x180F Battery Service` style names, with the thermostat's vendor UUIDs named too.
    static func serviceName(_ uuid: BluetoothUUID) -> String { Names.name(uuid) }

    /// A table for people: ID, NAME, RSSI, SERVICES, MANUFACTURER DATA (`Apple, Inc. 0x004C: 0x0215…`).
    static func table(_ devices: [ScannedDevice]) -> String {
        guard !devices.isEmpty else { return "No devices found." }
        let rows = devices.map { device in
            [
                device.id.description, device.name ?? "-", "\(device.rssi) dBm",
                device.services.isEmpty ? "-" : device.services.map(Names.labelled).joined(separator: ", "),
                device.manufacturerData.isEmpty
                    ? "-"
                    : device.manufacturerData.map {
                        "\(tableCompany($0.companyID)) \(companyHex($0.companyID)): \(Hex.text($0.data))"
                    }.joined(separator: "; "),
            ]
        }
        return Output.table(["ID", "NAME", "RSSI", "SERVICES", "MANUFACTURER DATA"], rows)
    }

    /// The widest a company's name is in the table: longer names (0xFFFF's is 110 characters) are elided.
    static let companyWidth = 32

    /// A company's name as the table shows it: whole up to ``companyWidth`` characters, else cut after the last
    /// whole word that fits with an ellipsis (`Bluetooth SIG Specification…`); JSON keeps the whole name.
    static func tableCompany(_ identifier: UInt16) -> String {
        let name = Names.company(identifier)
        guard name.count > companyWidth else { return name }
        let room = name.prefix(companyWidth - 1)
        let words = room.lastIndex(of: " ").map { room[..<$0] } ?? room
        return words.trimmingCharacters(in: CharacterSet(charactersIn: " ,.;:-")) + "…"
    }

    /// `0x004C`.
    static func companyHex(_ identifier: UInt16) -> String {
        let hex = String(identifier, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    /// A JSON array for scripts.
    static func json(_ devices: [ScannedDevice]) -> String {
        struct Service: Encodable {
            var uuid: String
            var name: String
        }
        struct Manufacturer: Encodable {
            var companyID: String
            var company: String?
            var hex: String
        }
        struct Device: Encodable {
            var id: String
            var name: String?
            var rssi: Int
            var connectable: Bool
            var advertisements: Int
            var services: [Service]
            var manufacturerData: [Manufacturer]
        }
        let values = devices.map { device in
            Device(
                id: device.id.description, name: device.name, rssi: device.rssi, connectable: device.isConnectable,
                advertisements: device.advertisementCount,
                services: device.services.map { Service(uuid: $0.description, name: serviceName($0)) },
                manufacturerData: device.manufacturerData.map {
                    Manufacturer(
                        companyID: companyHex($0.companyID), company: CompanyIdentifiers.name(of: $0.companyID),
                        hex: Hex.text($0.data))
                })
        }
        return Output.json(values)
    }
}
