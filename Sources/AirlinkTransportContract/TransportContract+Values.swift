// The contract's checks of values: reads, writes and notifications.
import AirlinkCore
import AirlinkProfiles
import Testing

extension TransportContract {
    /// Reads give whole values of characteristics and descriptors.
    public static func readsValues(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.thermostat)

            // When its temperature, its description and its battery level are read
            let temperature = try await transport.read(world.thermostat, handle: ContractHandles.temperature)
            let description = try await transport.read(world.thermostat, handle: ContractHandles.temperatureDescription)
            let battery = try await transport.read(world.thermostat, handle: ContractHandles.thermostatBattery)

            // Then they are 21.50 °C, "Temperature" and 87 %
            #expect(try Int16(gattBytes: temperature) == 2150)
            #expect(String(decoding: description, as: UTF8.self) == "Temperature")
            #expect(battery == [87])
            await transport.disconnect(world.thermostat)
        }
    }

    /// Writes with response are confirmed and read back; writes without response are bounded by the MTU.
    public static func writesValues(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat
        try await world.run { transport in
            let link = try await world.scanAndConnect(transport, world.thermostat)

            // When the unit is written with response, then without response
            try await transport.write(
                world.thermostat, handle: ContractHandles.unit, value: [0x01], type: .withResponse)
            let afterRequest = try await transport.read(world.thermostat, handle: ContractHandles.unit)
            try await transport.write(
                world.thermostat, handle: ContractHandles.unit, value: [0x00], type: .withoutResponse)
            let afterCommand = try await transport.read(world.thermostat, handle: ContractHandles.unit)

            // Then each value reads back
            #expect(afterRequest == [0x01])
            #expect(afterCommand == [0x00])

            // And a write without response longer than MTU − 3 is refused before it is sent
            let tooLong = [UInt8](repeating: 0, count: link.mtu - 2)
            let error = await #expect(throws: AirlinkError.self) {
                try await transport.write(
                    world.thermostat, handle: ContractHandles.unit, value: tooLong, type: .withoutResponse)
            }
            #expect(error?.code == .invalidArgument)

            // And a write the characteristic forbids fails (accepted difference: BlueZ refuses it itself)
            let forbidden = await #expect(throws: AirlinkError.self) {
                try await transport.write(
                    world.thermostat, handle: ContractHandles.thermostatBattery, value: [1], type: .withResponse)
            }
            #expect(
                forbidden?.attError == .writeNotPermitted || forbidden?.code == .operationNotSupported,
                "\(String(describing: forbidden))")
            await transport.disconnect(world.thermostat)
        }
    }

    /// Notifications arrive after they are enabled and stop when disabled; the CCCD shows the mode.
    public static func deliversNotifications(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat with temperature notifications on
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.thermostat)
            let characteristic = GATTCharacteristic(
                uuid: .thermostatTemperature, declarationHandle: ATTHandle(0x000B),
                valueHandle: ContractHandles.temperature,
                properties: [.read, .write, .notify])
            try await transport.setNotifications(world.thermostat, characteristic: characteristic, mode: .notify)
            #expect(
                try await transport.read(world.thermostat, handle: ContractHandles.temperatureCCCD) == [0x01, 0x00])
            let events = transport.events()

            // When the thermostat notifies 21.60 °C
            try await world.peripheralNotifies(
                world.thermostat, valueHandle: ContractHandles.temperature, value: [0x70, 0x08])

            // Then the value arrives for the temperature's value handle
            let value = await world.first(events, within: .seconds(2)) { event -> [UInt8]? in
                if case .notification(let id, let handle, let value) = event, id == world.thermostat,
                    handle == ContractHandles.temperature
                {
                    return value
                }
                return nil
            }
            #expect(value == [0x70, 0x08])

            // When notifications are turned off and the thermostat changes again, nothing arrives
            try await transport.setNotifications(world.thermostat, characteristic: characteristic, mode: .disabled)
            let quiet = transport.events()
            try await world.peripheralNotifies(
                world.thermostat, valueHandle: ContractHandles.temperature, value: [0x7A, 0x08])
            let late = await world.first(quiet, within: .milliseconds(300)) { event -> Bool? in
                if case .notification = event { return true }
                return nil
            }
            #expect(late == nil)
            #expect(
                try await transport.read(world.thermostat, handle: ContractHandles.temperatureCCCD) == [0x00, 0x00])
            await transport.disconnect(world.thermostat)
        }
    }
}
