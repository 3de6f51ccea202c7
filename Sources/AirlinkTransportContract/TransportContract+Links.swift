// The contract's checks of links ending: disconnection, loss, operations without a link, closed streams.
import AirlinkCore
import AirlinkProfiles
import Testing

extension TransportContract {
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
