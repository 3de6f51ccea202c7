import AirlinkCore
import AirlinkProfiles
import Testing

/// The transport contract (Sources/AirlinkCore/Transport/Transport.swift), as checks any world can
/// run: each function takes a ``TransportContractWorld`` and asserts only what every transport must
/// do. Accepted differences between transports are named where they matter:
///
/// - BlueZ hides services its plugins claim (GAP 0x1800, GATT 0x1801): checks look for the
///   peripherals' own services and do not count services.
/// - A write the characteristic's properties forbid is refused by BlueZ itself
///   (`operationNotSupported`); the virtual radio's server answers ATT Write Not Permitted.
public enum TransportContract {
    /// Scanning reports advertisements with their data; a service filter keeps other devices out.
    public static func discoversWithFilters(_ world: some TransportContractWorld) async throws {
        // Given a transport scanning for the Battery service only
        try await world.run { transport in
            let events = transport.events()
            try await transport.startScan(ScanFilter(services: [.battery]))

            // When the battery peripheral advertises
            let battery = await world.first(events, within: .seconds(5)) { event -> Advertisement? in
                if case .advertisement(let id, let advertisement) = event {
                    #expect(id != world.thermostat, "the thermostat does not advertise the Battery service")
                    if id == world.battery { return advertisement }
                }
                return nil
            }

            // Then its advertisement carries its name, services, service data and RSSI
            let advertisement = try #require(battery)
            #expect(advertisement.name == "Battery")
            #expect(advertisement.serviceUUIDs.contains(.battery))
            #expect(advertisement.serviceData(for: .battery) == [87])
            #expect(advertisement.rssi != nil)

            // When the filter is replaced by no filter, the thermostat is reported with its manufacturer data
            let all = transport.events()
            try await transport.startScan(ScanFilter())
            let thermostat = await world.first(all, within: .seconds(5)) { event -> Advertisement? in
                if case .advertisement(let id, let advertisement) = event, id == world.thermostat {
                    return advertisement
                }
                return nil
            }
            #expect(try #require(thermostat).manufacturerData(for: 0xFFFF) == [0xA1, 0xB2])
            await transport.stopScan()
        }
    }

    /// Connecting announces the link and discovery gives the peripheral's attributes with their handles.
    public static func connectsAndDiscovers(_ world: some TransportContractWorld) async throws {
        // Given a transport that saw the thermostat advertise
        try await world.run { transport in
            let events = transport.events()

            // When it connects
            let link = try await world.scanAndConnect(transport, world.thermostat)

            // Then the link is announced and usable
            #expect(link.mtu >= 23)
            let connected = await world.first(events, within: .seconds(2)) { event -> Bool? in
                if case .connected(let id) = event, id == world.thermostat { return true }
                return nil
            }
            #expect(connected == true)

            // And discovery gives the thermostat's services, characteristics and descriptors at their handles
            let services = try await transport.discoverServices(world.thermostat, uuids: nil)
            let temperatureService = try #require(services.first { $0.uuid == .thermostatTemperatureService })
            #expect(temperatureService.handles == ATTHandle(0x000A)...ATTHandle(0x0010))
            let batteryService = try #require(services.first { $0.uuid == .thermostatBatteryService })
            #expect(batteryService.handles == ATTHandle(0x0011)...ATTHandle(0x0014))
            let filtered = try await transport.discoverServices(world.thermostat, uuids: [.thermostatBatteryService])
            #expect(filtered == [batteryService])

            let characteristics = try await transport.discoverCharacteristics(
                world.thermostat, of: temperatureService, uuids: nil)
            #expect(
                characteristics == [
                    GATTCharacteristic(
                        uuid: .thermostatTemperature, declarationHandle: ATTHandle(0x000B),
                        valueHandle: ATTHandle(0x000C),
                        properties: [.read, .write, .notify]),
                    GATTCharacteristic(
                        uuid: .thermostatUnit, declarationHandle: ATTHandle(0x000F), valueHandle: ATTHandle(0x0010),
                        properties: [.read, .write, .writeWithoutResponse]),
                ])
            // Through the seam itself: the Swift 6.3.1 miscompile that once crashed this call is guarded by
            // TypedThrowsMiscompileTests (AirlinkSimulationTests), which `AirlinkError`'s boxed layout passes.
            let descriptors = try await transport.discoverDescriptors(
                world.thermostat, of: characteristics[0], in: temperatureService)
            #expect(
                descriptors == [
                    GATTDescriptor(uuid: .clientCharacteristicConfiguration, handle: ContractHandles.temperatureCCCD),
                    GATTDescriptor(
                        uuid: .characteristicUserDescription, handle: ContractHandles.temperatureDescription),
                ])
            await transport.disconnect(world.thermostat)
        }
    }
}
