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

    /// Disconnecting ends the link with a local reason; operations then fail with notConnected.
    public static func disconnects(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.thermostat)
            let events = transport.events()

            // When the app disconnects
            await transport.disconnect(world.thermostat)

            // Then the link ends for a local reason, and reads fail at once
            let reason = await world.first(events, within: .seconds(2)) { event -> DisconnectionReason? in
                if case .disconnected(let id, let reason) = event, id == world.thermostat { return reason }
                return nil
            }
            #expect(reason?.isLocal == true)
            let error = await #expect(throws: AirlinkError.self) {
                _ = try await transport.read(world.thermostat, handle: ContractHandles.temperature)
            }
            #expect(error?.code == .notConnected)
            // And disconnecting again does nothing
            await transport.disconnect(world.thermostat)
        }
    }

    /// A link the peripheral drops ends with a remote reason; a new connect works.
    public static func reportsConnectionLoss(_ world: some TransportContractWorld) async throws {
        // Given a connected battery peripheral
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.battery)
            let events = transport.events()

            // When it goes out of range
            try await world.peripheralDropsLink(world.battery)

            // Then the link ends for a reason that is not local, and operations fail with notConnected
            let reason = await world.first(events, within: .seconds(2)) { event -> DisconnectionReason? in
                if case .disconnected(let id, let reason) = event, id == world.battery { return reason }
                return nil
            }
            #expect(reason.map { !$0.isLocal } == true)
            let error = await #expect(throws: AirlinkError.self) {
                _ = try await transport.read(world.battery, handle: ContractHandles.batteryLevel)
            }
            #expect(error?.code == .notConnected)

            // And it can be connected again
            _ = try await transport.connect(world.battery, timeout: world.connectTimeout)
            #expect(try await transport.read(world.battery, handle: ContractHandles.batteryLevel) == [87])
            await transport.disconnect(world.battery)
        }
    }

    /// An ATT error from the peer surfaces as `attribute` with the ATT error and handle.
    public static func mapsATTErrors(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat that will answer the next temperature read with Unlikely Error
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.thermostat)
            try await world.peripheralFailsNextRead(
                world.thermostat, valueHandle: ContractHandles.temperature, with: .unlikelyError)

            // When the temperature is read
            let error = await #expect(throws: AirlinkError.self) {
                _ = try await transport.read(world.thermostat, handle: ContractHandles.temperature)
            }

            // Then the error is the ATT error, on that handle
            #expect(error?.code == .attribute)
            #expect(error?.cause == .att(.unlikelyError, handle: ContractHandles.temperature))
            // And the next read succeeds
            #expect(try await transport.read(world.thermostat, handle: ContractHandles.temperature) == [0x66, 0x08])
            await transport.disconnect(world.thermostat)
        }
    }

    /// Operations on a device that is not connected fail at once with notConnected.
    public static func refusesOperationsWithoutLink(_ world: some TransportContractWorld) async throws {
        try await world.run { transport in
            let read = await #expect(throws: AirlinkError.self) {
                _ = try await transport.read(world.thermostat, handle: ContractHandles.temperature)
            }
            let write = await #expect(throws: AirlinkError.self) {
                try await transport.write(
                    world.thermostat, handle: ContractHandles.unit, value: [1], type: .withResponse)
            }
            let info = await #expect(throws: AirlinkError.self) { _ = try await transport.linkInfo(world.thermostat) }
            for error in [read, write, info] {
                #expect(error?.code == .notConnected || error?.code == .deviceNotFound, "\(String(describing: error))")
            }
        }
    }

    /// A request the peripheral never answers fails with timeout within 30 s of its call (ATT's
    /// transaction timeout); a request issued while it is pending ends within 30 s of its own call too,
    /// time waiting behind it included. Accepted difference: the fake BlueZ's calls time out after its
    /// configured 5 s, and it answers the second read at once; on the virtual radio the timed-out
    /// transaction closes the link, so the second request may fail with linkLost.
    public static func timesOutUnansweredRequests(_ world: some TransportContractWorld) async throws {
        // Given a connected thermostat that will not answer the next read of its temperature
        try await world.run { transport in
            _ = try await world.scanAndConnect(transport, world.thermostat)
            try await world.peripheralIgnoresNextRead(world.thermostat, valueHandle: ContractHandles.temperature)

            // When the temperature is read, and the unit is read while that read is pending
            async let stalled = world.timed {
                try await transport.read(world.thermostat, handle: ContractHandles.temperature)
            }
            async let queued = world.timed {
                try await transport.read(world.thermostat, handle: ContractHandles.unit)
            }
            let (temperature, unit) = await (stalled, queued)

            // Then the unanswered read fails with timeout, 30 s after its call at most
            #expect(code(temperature.outcome) == .timeout, "\(temperature.outcome)")
            #expect(temperature.took <= .seconds(31), "the read took \(temperature.took)")
            // And the other read ended within 30 s of its own call: answered, timed out, or failed
            // because the timed-out transaction closed the link
            let unitCode = code(unit.outcome)
            #expect(
                unitCode == nil || unitCode == .timeout || unitCode == .linkLost, "\(unit.outcome)")
            #expect(unit.took <= .seconds(31), "the queued read took \(unit.took)")
            await transport.disconnect(world.thermostat)
        }
    }

    /// Closing the transport ends every subscriber's event stream, so no consumer waits forever.
    public static func endsStreamsWhenClosed(_ world: some TransportContractWorld) async throws {
        // Given two subscribers to the transport's events
        try await world.run { transport in
            let first = transport.events()
            let second = transport.events()

            // When the transport is closed
            try await world.close(transport)

            // Then both streams end
            #expect(await world.ends(first, within: .seconds(2)), "the first subscriber's stream did not end")
            #expect(await world.ends(second, within: .seconds(2)), "the second subscriber's stream did not end")
        }
    }
}

extension TransportContract {
    /// The code of the `AirlinkError` a call failed with, or `nil` when it succeeded or failed otherwise.
    static func code<Value>(_ result: Result<Value, any Error>) -> AirlinkError.Code? {
        guard case .failure(let error) = result else { return nil }
        return (error as? AirlinkError)?.code
    }
}
