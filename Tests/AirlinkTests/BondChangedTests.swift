import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// The stack's bond changing outside the app's `pair` (``TransportEvent/bondChanged(_:bonded:)``): a bond that
/// appears is `paired` and kept in the registry, one that goes is `bondLost` and leaves it, and a change the
/// layers already know of is not reported twice.
@Suite struct BondChangedTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    struct World {
        let sim: Simulation
        let transport: ScriptedTransport
        let registry: DeviceRegistry
        let manager: DeviceManager
        let connection: ConnectionManager
        let events: Recorder<ConnectionEvent>
    }

    static func connected() async throws -> World {
        let sim = Simulation(seed: 7, strict: true, tracing: true)
        let transport = try ScriptedTransport(environment: sim.environment, peripherals: [.thermostat()])
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        let manager = DeviceManager(transport: transport, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: thermostat)
        let events = Recorder.recording(connection.events(), in: sim.environment)
        try await sim.run { try await connection.connect(timeout: .seconds(1)) }
        return World(
            sim: sim, transport: transport, registry: registry, manager: manager, connection: connection,
            events: events)
    }

    static func names(_ world: World) -> [String] { world.events.values.map(\.name) }

    @Test func aBondThatAppearsIsPairedAndRecorded() async throws {
        // Given a connected thermostat the app never paired with
        let world = try await Self.connected()

        // When the stack reports a bond made outside the app's pair
        try await world.sim.run {
            await world.transport.changeBond(Self.thermostat, bonded: true)
        }
        try await world.sim.run(for: .milliseconds(100))

        // Then the connection reports paired, and the registry keeps the bond
        #expect(Self.names(world).filter { $0 == "paired" }.count == 1, "\(Self.names(world))")
        #expect(try await world.registry.record(for: Self.thermostat)?.bond != nil)
    }

    @Test func aBondThatGoesIsLostAndLeavesTheRegistry() async throws {
        // Given a thermostat the app paired and bonded with
        let world = try await Self.connected()
        _ = try await world.sim.run { try await world.connection.pair() }
        #expect(try await world.registry.record(for: Self.thermostat)?.bond != nil)

        // When the stack reports the bond gone, then gone again
        try await world.sim.run {
            await world.transport.changeBond(Self.thermostat, bonded: false)
            await world.transport.changeBond(Self.thermostat, bonded: false)
        }
        try await world.sim.run(for: .milliseconds(100))

        // Then bondLost is reported once, and the registry no longer has the bond
        #expect(Self.names(world).filter { $0 == "bondLost" }.count == 1, "\(Self.names(world))")
        #expect(try await world.registry.record(for: Self.thermostat)?.bond == nil)
    }

    @Test func theAppsOwnPairingIsNotReportedTwice() async throws {
        // Given a thermostat the app paired and bonded with
        let world = try await Self.connected()
        _ = try await world.sim.run { try await world.connection.pair() }

        // When the stack then reports that bond (as BlueZ's Bonded turning true)
        try await world.sim.run {
            await world.transport.changeBond(Self.thermostat, bonded: true)
        }
        try await world.sim.run(for: .milliseconds(100))

        // Then paired was reported once, by the pairing
        #expect(Self.names(world).filter { $0 == "paired" }.count == 1, "\(Self.names(world))")
    }
}

/// Forgetting a device through the layers forgets its bond on the transport too, not only its record.
@Suite struct ForgetDeviceTests {
    @Test func forgettingADeviceForgetsItsBondOnTheTransport() async throws {
        // Given a thermostat the app paired and bonded with, then disconnected from
        let world = try await BondChangedTests.connected()
        let (sim, manager, registry, connection) = (world.sim, world.manager, world.registry, world.connection)
        try await sim.run {
            _ = try await connection.pair()
            await connection.disconnect()
        }

        // When the app forgets the device
        let removed = try await sim.run { try await manager.forget(BondChangedTests.thermostat) }

        // Then the record is gone, and the next pairing pairs afresh (Just Works) rather than using a bond
        #expect(removed)
        #expect(try await registry.record(for: BondChangedTests.thermostat) == nil)
        let again = try await sim.run { () async throws -> PairingResult in
            try await connection.connect(timeout: .seconds(1))
            return try await connection.pair()
        }
        #expect(again.method == .justWorks)
    }
}
