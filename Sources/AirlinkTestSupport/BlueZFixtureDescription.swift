import AirlinkCore
import AirlinkSimulation
import Foundation

/// A peripheral as the fake BlueZ of the tests describes it (Tests/Fixtures/bluez/README.md).
///
/// Made from the same ``/AirlinkCore/PeripheralSpec`` the virtual radio runs, with the handles the radio's
/// attribute database gives, so that both transports are tested on the same devices: same services,
/// same handles, same initial values. Behaviour (closures, periodic updates, timelines) does not
/// carry over: the fake BlueZ serves the initial values and whatever a test writes or notifies.
package struct BlueZFixtureDescription: Codable, Sendable, Hashable {
    /// One fake peripheral.
    package struct Peripheral: Codable, Sendable, Hashable {
        /// The advertised local name, if it advertises one.
        package var name: String?
        /// `C0:FF:EE:00:00:01`.
        package var address: String
        /// `public` or `random`.
        package var addressType: String
        /// The RSSI BlueZ reports for it, dBm.
        package var rssi: Int
        /// The advertised TX power, if any.
        package var txPower: Int?
        /// The advertised service UUIDs.
        package var advertisedServices: [String]
        /// Company id (`0xFFFF`) to hex bytes.
        package var manufacturerData: [String: String]
        /// Service UUID to hex bytes.
        package var serviceData: [String: String]
        /// The ATT MTU BlueZ reports after connecting.
        package var mtu: Int
        /// The services, with explicit handles.
        package var services: [Service]
    }

    /// A service with its declaration handle.
    package struct Service: Codable, Sendable, Hashable {
        /// The UUID.
        package var uuid: String
        /// Primary or secondary.
        package var primary: Bool
        /// The service declaration's handle.
        package var handle: Int
        /// The characteristics.
        package var characteristics: [Characteristic]
    }

    /// A characteristic with its declaration handle (the value follows at `handle + 1`).
    package struct Characteristic: Codable, Sendable, Hashable {
        /// The UUID.
        package var uuid: String
        /// BlueZ's flags: `read`, `write`, `write-without-response`, `notify`, `indicate`, ...
        package var flags: [String]
        /// The declaration's handle.
        package var handle: Int
        /// The initial value, hex.
        package var value: String
        /// The descriptors, the CCCD included.
        package var descriptors: [Descriptor]
    }

    /// A descriptor with its handle.
    package struct Descriptor: Codable, Sendable, Hashable {
        /// The UUID.
        package var uuid: String
        /// `read`, `write`.
        package var flags: [String]
        /// The handle.
        package var handle: Int
        /// The initial value, hex.
        package var value: String
    }

    /// The adapters (one, `hci0`).
    package var adapters: [[String: String]] = [["name": "hci0"]]
    /// The peripherals.
    package var peripherals: [Peripheral]

    /// Describes `specs` as fake BlueZ peripherals.
    ///
    /// - Parameters:
    ///   - specs: the peripherals.
    ///   - rssi: the RSSI BlueZ reports for a peripheral, by id.
    ///   - defaultRSSI: the RSSI of peripherals not in `rssi`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` for a spec whose database cannot be built.
    package init(_ specs: [PeripheralSpec], rssi: [DeviceID: Int] = [:], defaultRSSI: Int = -60) throws(AirlinkError) {
        peripherals = []
        for spec in specs { peripherals.append(try Self.peripheral(spec, rssi: rssi[spec.id] ?? defaultRSSI)) }
    }

    /// The description as pretty-printed JSON, keys sorted (stable across runs).
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    private static func peripheral(_ spec: PeripheralSpec, rssi: Int) throws(AirlinkError) -> Peripheral {
        let database = try AttributeDatabase(spec.gattDefinition)
        let advertisement = spec.advertising?.advertisement ?? Advertisement()
        var manufacturer: [String: String] = [:]
        for entry in advertisement.manufacturerData {
            manufacturer["0x" + hex(UInt16(entry.companyID))] = hex(entry.data)
        }
        var serviceData: [String: String] = [:]
        for entry in advertisement.serviceData { serviceData[entry.uuid.description] = hex(entry.data) }
        guard case .address(let address, let type) = spec.id.kind else {
            throw AirlinkError(
                .invalidSpecification, "\(spec.name): the fake BlueZ needs a BD_ADDR, not \(spec.id)")
        }
        return Peripheral(
            name: advertisement.localName?.name, address: address.description,
            addressType: type == .random ? "random" : "public", rssi: rssi,
            txPower: advertisement.txPowerLevel.map(Int.init),
            advertisedServices: advertisement.serviceUUIDs.map(\.uuidString), manufacturerData: manufacturer,
            serviceData: serviceData, mtu: spec.preferredMTU, services: services(of: database))
    }

    /// Walks the attribute table in handle order. bluetoothd hides GAP (1800), which its gap plugin claims, and
    /// exports the Generic Attribute service (1801) with its characteristics, as seen on the real stack
    /// (`RealBlueZGATTCachingTests`, bluetoothd 5.66): so do we.
    private static func services(of database: AttributeDatabase) -> [Service] {
        var services: [Service] = []
        var hidden = false
        for attribute in database.attributes {
            let handle = Int(attribute.handle.rawValue)
            switch attribute.role {
            case .service:
                // try?: AttributeDatabase built this declaration from a UUID, so its value is one.
                let uuid = (try? BluetoothUUID(littleEndian: attribute.value)) ?? .base
                hidden = uuid == .genericAccess
                if !hidden {
                    services.append(
                        Service(
                            uuid: uuid.uuidString, primary: attribute.type == .primaryServiceDeclaration,
                            handle: handle, characteristics: []))
                }
            case .characteristicDeclaration where !hidden:
                services[services.count - 1].characteristics.append(
                    Characteristic(uuid: "", flags: [], handle: handle, value: "", descriptors: []))
            case .characteristicValue(let properties, _) where !hidden:
                let last = services.count - 1
                let index = services[last].characteristics.count - 1
                services[last].characteristics[index].uuid = attribute.type.uuidString
                services[last].characteristics[index].flags = flags(properties)
                services[last].characteristics[index].value = hex(attribute.value)
            case .cccd, .descriptor:
                guard !hidden else { continue }
                let last = services.count - 1
                let index = services[last].characteristics.count - 1
                var flags = ["read"]
                if attribute.permissions.contains(.writable) { flags.append("write") }
                services[last].characteristics[index].descriptors.append(
                    Descriptor(
                        uuid: attribute.type.uuidString, flags: flags, handle: handle, value: hex(attribute.value)))
            default:
                continue
            }
        }
        return services
    }

    private static func flags(_ properties: CharacteristicProperties) -> [String] {
        let names: [(CharacteristicProperties, String)] = [
            (.broadcast, "broadcast"), (.read, "read"), (.writeWithoutResponse, "write-without-response"),
            (.write, "write"), (.notify, "notify"), (.indicate, "indicate"),
            (.authenticatedSignedWrites, "authenticated-signed-writes"), (.extendedProperties, "extended-properties"),
        ]
        return names.filter { properties.contains($0.0) }.map(\.1)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { hex(UInt8($0)) }.joined()
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
    }

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
}
