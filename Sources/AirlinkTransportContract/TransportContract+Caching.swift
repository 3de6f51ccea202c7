import AirlinkCore
import Testing

extension TransportContract {
    /// What GATT caching across connections relies on (Docs/GATTCaching.md): a device whose database did not
    /// change serves the same handles on the next link, so handles discovered on one link can be used on the
    /// next without discovering; and the Database Hash read (`readValue(_:ofType:)` for 0x2B2A) is the same on
    /// both. The contract peripherals serve no hash (they keep Service Changed only; the fake BlueZ exports no
    /// remote Generic Attribute service), so both reads give `nil` here, which the layers treat as "no hash".
    /// A changed database is the next check's (``reportsAChangedDatabaseAndDiscoversTheNewHandles(_:)``).
    public static func reconnectsWithUnchangedDatabaseOnTheSameHandles(_ world: some TransportContractWorld)
        async throws
    {
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

    /// What the layers' cache relies on when a device's database changes while connected: the transport reports
    /// `.servicesChanged` for the device, and discovery then finds the new handles, where the same values are.
    public static func reportsAChangedDatabaseAndDiscoversTheNewHandles(_ world: some TransportContractWorld)
        async throws
    {
        try await world.run { transport in
            // Given the thermostat connected and discovered, its temperature at its first handle
            _ = try await world.scanAndConnect(transport, world.thermostat)
            let before = try await temperatureCharacteristic(transport, world.thermostat)
            #expect(before.valueHandle == ContractHandles.temperature)
            let events = transport.events()

            // When its firmware moves the database and announces it
            try await world.thermostatMovesItsDatabase()

            // Then the transport reports the change for the thermostat
            let changed = await world.first(events, within: .seconds(5)) { event -> Bool? in
                if case .servicesChanged(let device, _) = event, device == world.thermostat { return true }
                return nil
            }
            #expect(changed == true, "no servicesChanged for the thermostat within 5 s")
            // And discovery finds the temperature at another handle, holding the same value (21.50 °C)
            let after = try await temperatureCharacteristic(transport, world.thermostat)
            #expect(after.valueHandle != before.valueHandle)
            let value = try await transport.read(world.thermostat, handle: after.valueHandle)
            #expect(try Int16(gattBytes: value) == 2150)
            await transport.disconnect(world.thermostat)
        }
    }

    /// The thermostat's temperature characteristic, discovered afresh.
    private static func temperatureCharacteristic(_ transport: any Transport, _ device: DeviceID) async throws
        -> GATTCharacteristic
    {
        let services = try await transport.discoverServices(device, uuids: [.thermostatTemperatureService])
        let service = try #require(services.first, "no temperature service")
        let characteristics = try await transport.discoverCharacteristics(
            device, of: service, uuids: [.thermostatTemperature])
        return try #require(characteristics.first, "no temperature characteristic")
    }
}
