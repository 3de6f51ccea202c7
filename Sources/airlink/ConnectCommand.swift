import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser

/// `airlink connect ID` (or `--last`): connects, prints the link (MTU, services, characteristics and
/// their descriptors), records the connection in the registry, disconnects.
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect to a device and print the link: MTU, services, characteristics, descriptors.")

    @OptionGroup var central: CentralOptions

    @Argument(help: "The device id, such as C0:FF:EE:00:00:01 (airlink scan lists them).")
    var id: String?

    @Flag(name: .long, help: "Connect to the device the registry connected to last.")
    var last = false

    func validate() throws {
        switch (id, last) {
        case (nil, false):
            throw ValidationError("name the device: airlink connect ID, or airlink connect --last")
        case (_?, true):
            throw ValidationError("give either an ID or --last, not both")
        case (let text?, false):
            _ = try Arguments.device(text)
        case (nil, true):
            break
        }
    }

    /// What `connect` reports.
    struct Report: Encodable, Sendable {
        struct Descriptor: Encodable, Sendable {
            var uuid: String
            var name: String
        }
        struct Characteristic: Encodable, Sendable {
            var uuid: String
            var name: String
            var properties: [String]
            var descriptors: [Descriptor]
        }
        struct Service: Encodable, Sendable {
            var uuid: String
            var name: String
            var characteristics: [Characteristic]
        }
        var device: String
        var mtu: Int
        var maximumWriteWithoutResponse: Int
        var services: [Service]
        /// Whether the database came from the registry's cache: `hashMatched`, `trustedWithoutHash`, or absent
        /// when it was discovered.
        var databaseCache: String?
    }

    func run() async throws {
        let target: DeviceTarget = try id.map { .id(try DeviceQuery(parsing: $0)) } ?? .last
        let report = try await ConnectingCommand.withConnection(central, to: target) { _, connection in
            let managers = try await connection.services.discover()
            var services: [Report.Service] = []
            for manager in managers {
                var characteristics: [Report.Characteristic] = []
                for characteristic in try await manager.discoverCharacteristics() {
                    let descriptors = try await manager.discoverDescriptors(of: characteristic.uuid)
                    characteristics.append(
                        Report.Characteristic(
                            uuid: characteristic.uuid.description, name: Names.name(characteristic.uuid),
                            properties: Self.names(of: characteristic.properties),
                            descriptors: descriptors.map {
                                Report.Descriptor(uuid: $0.uuid.description, name: Names.name($0.uuid))
                            }))
                }
                services.append(
                    Report.Service(
                        uuid: manager.uuid.description, name: Names.name(manager.uuid),
                        characteristics: characteristics))
            }
            return Report(
                device: connection.device.description, mtu: connection.mtu ?? 23,
                maximumWriteWithoutResponse: try connection.maximumWriteLength(for: .withoutResponse),
                services: services, databaseCache: connection.services.reusedDatabaseCache?.description)
        }
        print(central.global.json ? Output.json(report) : Self.text(report))
    }

    static func names(of properties: CharacteristicProperties) -> [String] {
        let all: [(CharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "signed-write"), (.extendedProperties, "extended"),
        ]
        return all.filter { properties.contains($0.0) }.map(\.1)
    }

    static func text(_ report: Report) -> String {
        var lines = [
            "Connected to \(report.device)",
            "MTU \(report.mtu) (writes without response up to "
                + "\(report.maximumWriteWithoutResponse) bytes)",
            "GATT database: "
                + (report.databaseCache.map { "from the registry's cache (\($0))" } ?? "discovered"), "",
        ]
        var rows: [[String]] = []
        for service in report.services {
            rows.append(["\(service.uuid)", service.name, ""])
            for characteristic in service.characteristics {
                rows.append([
                    "  \(characteristic.uuid)", characteristic.name, characteristic.properties.joined(separator: ","),
                ])
                for descriptor in characteristic.descriptors {
                    rows.append(["    \(descriptor.uuid)", descriptor.name, ""])
                }
            }
        }
        lines.append(Output.table(["SERVICE / CHARACTERISTIC / DESCRIPTOR", "NAME", "PROPERTIES"], rows))
        return lines.joined(separator: "\n")
    }
}
