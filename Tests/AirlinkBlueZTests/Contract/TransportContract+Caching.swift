import AirlinkCore
import Testing

extension TransportContract {
    /// What GATT caching across connections relies on (Docs/GATTCaching.md): a device whose database did not
    /// change serves the same handles on the next link, so handles discovered on one link can be used on the
    /// next without discovering; and the Database Hash read (`readValue(_:ofType:)` for 0x2B2A) is the same on
    /// both. The contract peripherals serve no hash (they keep Service Changed only; the fake BlueZ exports no
    /// remote Generic Attribute service), so both reads give `nil` here, which the layers treat as "no hash".
    /// A changed database cannot be expressed by the fake BlueZ's fixtures (they are exported once from the
    /// specs); the virtual radio's case is `DatabaseCacheTests` and the `cache-*` scenarios.
    static func reconnectsWithUnchangedDatabaseOnTheSameHandles(_ world: some TransportContractWorld) async throws {
        try await world.run { transport in
            // Given the thermostat's temperature characteristic discovered on a first link, and its hash read
            _ = try await world.scanAndConnect(transport, world.thermostat)
            let services = try await transport.discoverServices(world.thermostat, uuids: nil)
            var discovered: [GATTCharacteristic] = []
            for service in services {
                discovered += try await transport.discoverCharacteristics(world.thermostat, of: service, uuids: nil)
            }
            let firstHash = try await transport.readValue(world.thermostat, ofType: .databaseHash)
            let temperature = try #require(discovered.first { $0.valueHandle == ContractHandles.temperature })
            await transport.disconnect(world.thermostat)

            // When a second link comes up and the cached handle is read without discovering
            _ = try await world.scanAndConnect(transport, world.thermostat)
            let value = try await transport.read(world.thermostat, handle: temperature.valueHandle)
            let secondHash = try await transport.readValue(world.thermostat, ofType: .databaseHash)

            // Then the value is the temperature's (21.50 °C) and the hash read the same on both links
            #expect(try Int16(gattBytes: value) == 2150)
            #expect(firstHash == secondHash)
            // And discovery on the second link finds the same characteristics at the same handles
            var again: [GATTCharacteristic] = []
            for service in try await transport.discoverServices(world.thermostat, uuids: nil) {
                again += try await transport.discoverCharacteristics(world.thermostat, of: service, uuids: nil)
            }
            #expect(again == discovered)
            await transport.disconnect(world.thermostat)
        }
    }
}
