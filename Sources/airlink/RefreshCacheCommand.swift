import Airlink
import AirlinkCore
import AirlinkRegistry
import ArgumentParser
import Synchronization

/// `airlink refresh-cache ID`: the remedy for a stale GATT cache. Drops the registry's cached database of the
/// device and the stack's own copy (on BlueZ, `Adapter1.RemoveDevice`: BlueZ forgets the device with its cache),
/// scans until the device is heard again, connects, discovers the whole database and caches it anew.
struct RefreshCacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh-cache",
        abstract: "Drop every cached copy of a device's GATT database (BlueZ's too) and discover it again.")

    @OptionGroup var central: CentralOptions

    @Argument(help: "The device id, such as C0:FF:EE:00:00:01 (airlink devices lists them).")
    var id: String

    @Option(
        name: .customLong("scan-timeout"), parsing: .unconditional,
        help: "How long to scan for the device once BlueZ forgot it: 500ms, 10s.")
    var scanTimeout: String = "10s"

    func validate() throws {
        _ = try Arguments.device(id)
        _ = try DurationArgument.parse(
            scanTimeout, flag: "--scan-timeout", maximum: DurationArgument.maximum(on: central.global))
    }

    /// What `refresh-cache` reports.
    struct Report: Encodable, Sendable {
        var device: String
        /// The registry held a cached database, now dropped.
        var registryCacheDropped: Bool
        /// The stack's own copy was dropped.
        var stackCacheDropped: Bool
        /// The stack forgot the device with its copy (BlueZ's RemoveDevice), and a scan found it again.
        var removedFromStack: Bool
        /// What was discovered afterwards: services, and characteristics in all.
        var services: Int
        var characteristics: Int
    }

    /// What the preparation found, carried to the report.
    private final class Dropped: Sendable {
        let value = Mutex<DroppedDatabaseCaches?>(nil)
    }

    func run() async throws {
        // try?: validate() already refused a bad --scan-timeout.
        let scan = (try? DurationArgument.parse(scanTimeout, flag: "")) ?? .seconds(10)
        let dropped = Dropped()
        let query = try DeviceQuery(parsing: id)
        let central = self.central
        let prepare: @Sendable (DeviceManager, DeviceID) async throws -> Void = { manager, device in
            let result = try await manager.dropDatabaseCaches(of: device, timeout: central.timeout)
            dropped.value.withLock { $0 = result }
            guard result.mustBeDiscoveredAgain else { return }
            _ = try await DeviceSearch.find(
                with: manager, within: scan,
                notHeard: "\(device) was removed from the stack with its cache but was not heard within \(scan.text) "
                    + "of scanning; make it advertise and run airlink connect \(device), or give --scan-timeout more"
            ) { $0 == device }
        }
        let report = try await ConnectingCommand.withConnection(central, to: .id(query), prepare: prepare) {
            _, connection in
            var characteristics = 0
            let managers = try await connection.services.discover()
            for manager in managers { characteristics += try await manager.discoverCharacteristics().count }
            let result = dropped.value.withLock { $0 }
            return Report(
                device: connection.device.description, registryCacheDropped: result?.registry ?? false,
                stackCacheDropped: result?.stack ?? false, removedFromStack: result?.mustBeDiscoveredAgain ?? false,
                services: managers.count, characteristics: characteristics)
        }
        if central.global.json {
            print(Output.json(report))
        } else {
            let registry = report.registryCacheDropped ? "the registry's" : "the registry had none"
            let stack =
                report.removedFromStack
                ? ", and BlueZ's own (BlueZ forgot the device; a scan found it again)"
                : report.stackCacheDropped ? ", and what the transport's central kept of it" : ""
            print("Dropped the cached GATT database of \(report.device): \(registry)\(stack).")
            print(
                "Discovered again: \(report.services) services, \(report.characteristics) characteristics; "
                    + "the registry caches them.")
        }
    }
}
