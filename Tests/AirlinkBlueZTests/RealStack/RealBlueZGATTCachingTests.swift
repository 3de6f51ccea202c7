import AirlinkCore
import AirlinkSimulation
import AirlinkTransportContract
import Testing

@testable import AirlinkBlueZ

extension RealStackTests {
    /// What the real bluetoothd tells Airlink of a device's GATT database, and what it hides: the question the fake
    /// BlueZ could only answer from BlueZ's documentation (Docs/GATTCaching.md, Docs/RealAdapter.md).
    @Suite("GATT caching on the real Linux stack")
    struct RealBlueZGATTCachingTests {
        /// The contract's thermostat with the whole Generic Attribute service: Service Changed, Client Supported
        /// Features and the Database Hash.
        static let hashedThermostat = ContractPeripherals.thermostat.with(genericAttribute: .all)

        @Test("bluetoothd exports the Generic Attribute service and hides GAP")
        func exportsGenericAttribute() async throws {
            let world = try await RealBlueZContractWorld.fresh(serving: [Self.hashedThermostat])
            try await world.run { transport in
                _ = try await world.scanAndConnect(transport, world.thermostat)
                let services = try await transport.discoverServices(world.thermostat, uuids: nil)
                #expect(services.contains { $0.uuid == .genericAttribute }, "\(services.map(\.uuid))")
                #expect(!services.contains { $0.uuid == .genericAccess }, "\(services.map(\.uuid))")
                await transport.disconnect(world.thermostat)
            }
        }

        @Test("the Database Hash is readable through bluetoothd, and is the peripheral's own")
        func readsTheDatabaseHash() async throws {
            let world = try await RealBlueZContractWorld.fresh(serving: [Self.hashedThermostat])
            let expected = try AttributeDatabase(Self.hashedThermostat.gattDefinition).databaseHash
            try await world.run { transport in
                _ = try await world.scanAndConnect(transport, world.thermostat)
                let value = try await transport.readValue(world.thermostat, ofType: .databaseHash)
                #expect(value == expected.characteristicValue)
                await transport.disconnect(world.thermostat)
            }
        }
    }
}
