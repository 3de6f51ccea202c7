import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Foundation
import Testing

/// Remembered devices reconnect without a scan: `connection(toKnown:)` on the virtual radio.
@Suite struct KnownDeviceTests {
    private func temporaryRegistry(in directory: TemporaryDirectory) -> (DeviceRegistry, String) {
        let path = directory.file("registry.json")
        return (DeviceRegistry(repository: JSONFileDeviceRepository(path: path)), path)
    }

    /// Connects to `device` once in a simulation of the built-in world, discovering its services.
    private func connectOnce(_ device: DeviceID, registry: DeviceRegistry, seed: UInt64) async throws {
        let sim = Simulation(seed: seed, strict: true)
        _ = try sim.add(SimulatedWorld.builtIn)
        let (radio, environment) = (sim.radio, sim.environment)
        try await sim.run {
            let manager = DeviceManager(transport: radio, environment: environment, registry: registry)
            let discovery = try await manager.discover(named: "Battery", timeout: .seconds(2))
            _ = await discovery.waitUntilStopped()
            let connection = manager.connection(to: device)
            try await connection.connect(timeout: .seconds(5))
            try await connection.services.discover()
            await connection.disconnect()
            await manager.waitForRecords()
            manager.shutdown()
        }
    }

    @Test func aRememberedDeviceReconnectsWithoutAScan() async throws {
        // Given a registry that remembers the battery from a first simulation (discovered, connected)
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (registry, path) = temporaryRegistry(in: directory)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let battery: DeviceID = "B4:77:E2:00:00:02"
        try await connectOnce(battery, registry: registry, seed: 1)
        let first = try #require(try await registry.record(for: battery))
        #expect(first.name == "Battery")
        #expect(first.services.contains(.battery))

        // When a new simulation connects to it through connection(toKnown:) and reads its level
        let sim = Simulation(seed: 2, strict: true)
        _ = try sim.add(SimulatedWorld.builtIn)
        let (radio, environment) = (sim.radio, sim.environment)
        let level = try await sim.run {
            let manager = DeviceManager(transport: radio, environment: environment, registry: registry)
            defer { manager.shutdown() }
            let connection = try await manager.connection(toKnown: battery)
            try await connection.connect(timeout: .seconds(5))
            let level = try await connection.services.service(.battery).read(UInt8.self, from: .batteryLevel)
            await connection.disconnect()
            return level
        }

        // Then it read the level, the trace shows no scan, and the record counts a second connection
        #expect(level > 0)
        #expect(sim.trace.events(in: "scan").isEmpty)
        // A scan's start is a free-form note (no typed record): no note of any category says one started.
        #expect(
            !sim.trace.records.contains { record in
                guard case .line(_, let text) = record.event else { return false }
                return text.contains("scan started") || text.contains("startScan")
            })
        let second = try #require(try await registry.record(for: battery))
        #expect(second.connectionCount == 2)
        #expect(second.name == "Battery")
        #expect(second.lastConnected >= first.lastConnected)
    }

    @Test func retrieveDevicesGivesTheKnownOnesInOrder() async throws {
        // Given a registry that remembers the battery only
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (registry, path) = temporaryRegistry(in: directory)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let battery: DeviceID = "B4:77:E2:00:00:02"
        let thermostat: DeviceID = "C0:FF:EE:00:00:01"
        try await connectOnce(battery, registry: registry, seed: 3)

        // When retrieving the thermostat and the battery, and asking for the thermostat as known
        let sim = Simulation(seed: 4, strict: true)
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        defer { manager.shutdown() }
        let retrieved = try await manager.retrieveDevices(withIDs: [thermostat, battery])

        // Then only the battery comes back, and the unknown thermostat is a typed error
        #expect(retrieved.map(\.device) == [battery])
        let error = await #expect(throws: AirlinkError.self) { _ = try await manager.connection(toKnown: thermostat) }
        #expect(error?.code == .deviceNotFound)
        #expect(error?.message.contains("not in the registry") == true)
    }

    @Test func aRememberedDeviceOutOfRangeTimesOutAndTheRecordStays() async throws {
        // Given a remembered battery that has moved out of range
        let directory = TemporaryDirectory()
        defer { withExtendedLifetime(directory) {} }
        let (registry, path) = temporaryRegistry(in: directory)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let battery: DeviceID = "B4:77:E2:00:00:02"
        try await connectOnce(battery, registry: registry, seed: 5)
        let sim = Simulation(seed: 6, strict: true)
        let peripherals = try sim.add(SimulatedWorld.builtIn)
        try #require(peripherals.first { $0.id == battery }).moveOutOfRange()
        let (radio, environment) = (sim.radio, sim.environment)

        // When connecting to it as a known device
        let failure = try await sim.run { () async throws -> AirlinkError? in
            let manager = DeviceManager(transport: radio, environment: environment, registry: registry)
            defer { manager.shutdown() }
            let connection = try await manager.connection(toKnown: battery)
            do {
                try await connection.connect(timeout: .seconds(3))
                return nil
            } catch let error as AirlinkError {
                return error
            }
        }

        // Then the connect times out with a typed error, and the record is still there, unchanged
        #expect(failure?.code == .timeout)
        let record = try #require(try await registry.record(for: battery))
        #expect(record.connectionCount == 1)
    }
}
