// The contract's checks of errors: ATT errors mapped, unanswered requests ended by their deadline.
import AirlinkCore
import AirlinkProfiles
import Testing

extension TransportContract {
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

    /// The code of the `AirlinkError` a call failed with, or `nil` when it succeeded or failed otherwise.
    static func code<Value>(_ result: Result<Value, any Error>) -> AirlinkError.Code? {
        guard case .failure(let error) = result else { return nil }
        return (error as? AirlinkError)?.code
    }
}
