import AirlinkCore
import AirlinkRegistry
import ArgumentParser
import Foundation

/// `airlink devices`: lists the remembered devices, most recently connected first.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List the devices the registry remembers, last connected first.")

    @OptionGroup var registry: RegistryOptions

    @Flag(name: .long, help: "Print JSON instead of a table.")
    var json = false

    /// One remembered device as printed.
    struct Row: Encodable, Sendable {
        var id: String
        /// `public`, `random` or `opaque`: part of the device's identity (Docs/Registry.md, "Identity").
        var addressType: String
        var name: String?
        var services: [String]
        var firstConnected: String
        var lastConnected: String
        var connections: Int
        /// The Database Hash the cached database was taken under, hex; absent when none is known.
        var databaseHash: String?
        /// The cached GATT database (services with handles and the characteristics found); absent when none.
        var cachedDatabase: CachedGATTDatabase?
        /// The bond `airlink pair` (or the app's pairing) left: level, key size, when; absent when none.
        var bond: Bond?

        /// A bond as `devices --json` shows it: ``BondRecord``'s fields, its time in seconds since 1970 to the
        /// microsecond at most (the registry keeps a `Double`, which would print 17 significant digits).
        struct Bond: Encodable {
            var level: Int
            var keySize: Int
            var bonded: Seconds

            init(_ record: BondRecord) {
                level = record.level.rawValue
                keySize = record.keySize
                let microseconds = (record.bonded.secondsSince1970 * 1_000_000).rounded()
                bonded = Seconds(.microseconds(Int64(microseconds)))
            }
        }

        init(_ record: ConnectionRecord) {
            id = record.id.description
            addressType = record.id.addressType.map { "\($0)" } ?? "opaque"
            name = record.name
            services = record.services.map(\.description)
            firstConnected = Self.iso(record.firstConnected)
            lastConnected = Self.iso(record.lastConnected)
            connections = record.connectionCount
            databaseHash = record.databaseHash.map { $0.map { String(format: "%02x", $0) }.joined() }
            cachedDatabase = record.database
            bond = record.bond.map(Bond.init)
        }

        /// The CACHE column: `2 services, 5 characteristics, hash 1a2b3c4d…`, or `-`.
        var cache: String {
            guard let cachedDatabase else { return databaseHash.map { "hash \($0.prefix(8))…" } ?? "-" }
            let counts =
                "\(cachedDatabase.services.count) services, \(cachedDatabase.characteristicCount) characteristics"
            return counts + (databaseHash.map { ", hash \($0.prefix(8))…" } ?? ", no hash")
        }

        static func iso(_ time: RecordTimestamp) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            return formatter.string(from: time.date)
        }
    }

    func run() async throws {
        let rows = try await registry.open().knownDevices().map(Row.init)
        if json {
            print(Output.json(rows))
        } else if rows.isEmpty {
            print("No remembered devices in \(registry.location). Connect to one: airlink connect ID")
        } else {
            print(
                Output.table(
                    ["ID", "TYPE", "NAME", "LAST CONNECTED", "CONNECTIONS", "SERVICES", "CACHE"],
                    rows.map { row in
                        [
                            row.id, row.addressType, row.name ?? "-", row.lastConnected, "\(row.connections)",
                            // try?: a service the registry holds in a form the table cannot name is shown as stored.
                            row.services.map { (try? BluetoothUUID(parsing: $0)).map(Names.name) ?? $0 }
                                .joined(separator: ", "),
                            row.cache,
                        ]
                    }))
        }
    }
}
