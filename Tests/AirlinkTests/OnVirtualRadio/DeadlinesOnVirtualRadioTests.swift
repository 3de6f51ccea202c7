import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Testing

/// Deadlines and waits as the layers keep them on the virtual radio, in virtual time.
@Suite struct DeadlinesOnVirtualRadioTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A strict simulation with the thermostat, and a device manager on its radio.
    private static func world() throws -> (Simulation, DeviceManager, SimulatedPeripheral) {
        let sim = Simulation(seed: 7, strict: true)
        let peripherals = try sim.add(SimulatedWorld([.thermostat()]))
        return (sim, DeviceManager(transport: sim.radio, environment: sim.environment), peripherals[0])
    }

    /// The virtual times, from the start of the run, of the trace's records that `matches` admits.
    private static func times(_ sim: Simulation, where matches: (TraceEvent) -> Bool) -> [Duration] {
        sim.trace.records.filter { matches($0.event) }.map(\.time.offset)
    }

    @Test func aGATTOperationQueuedBehindASlowOneTimesOutThirtySecondsAfterTheAppIssuedIt() async throws {
        // Given a connected thermostat whose caches are warm, that answers the next temperature read
        // after 2 s and never answers the next unit read
        let (sim, manager, thermostat) = try Self.world()
        let connection = manager.connection(to: Self.thermostat)
        let service = connection.services.service(.thermostatTemperatureService)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.read(.thermostatTemperature)
            _ = try await service.read(.thermostatUnit)
        }
        thermostat.delayResponses(to: .read(.thermostatTemperature), by: .seconds(2))
        thermostat.neverRespond(to: .read(.thermostatUnit))

        // When the app reads the temperature, and 1 ms later the unit (which waits its turn)
        let (issued, ended, code) = try await sim.run {
            sim.spawn { _ = try? await service.read(.thermostatTemperature) }
            try await sim.clock.sleep(for: .milliseconds(1))
            let issued = sim.clock.now
            var code: AirlinkError.Code?
            do throws(AirlinkError) { _ = try await service.read(.thermostatUnit) } catch { code = error.code }
            return (issued, sim.clock.now, code)
        }

        // Then the unit read fails with timeout 30 s after the app issued it, as its timeout says
        #expect(code == .timeout)
        #expect(issued.duration(to: ended) == .seconds(30))
    }

    @Test func aWriteThatExpiresWhileWaitingItsTurnIsNeverSent() async throws {
        // Given a connected thermostat, caches cold, that answers the next service discovery request
        // (Find By Type Value) and the next temperature read 20 s late each
        let (sim, manager, thermostat) = try Self.world()
        let connection = manager.connection(to: Self.thermostat)
        let service = connection.services.service(.thermostatTemperatureService)
        try await sim.run { try await connection.connect(timeout: .seconds(3)) }
        thermostat.delayResponses(to: .opcode(.findByTypeValueRequest), by: .seconds(20))
        thermostat.delayResponses(to: .read(.thermostatTemperature), by: .seconds(20))
        let unit: UInt8 = try thermostat.value(of: .thermostatUnit)

        // When the app reads the temperature (discovering first, about 40 s), and 1 ms later writes
        // the unit, which waits its turn behind the read
        let (issued, ended, code) = try await sim.run {
            let read = sim.spawn { _ = try? await service.read(.thermostatTemperature) }
            try await sim.clock.sleep(for: .milliseconds(1))
            let issued = sim.clock.now
            var code: AirlinkError.Code?
            do throws(AirlinkError) {
                try await service.write([unit ^ 1], to: .thermostatUnit)
            } catch {
                code = error.code
            }
            let ended = sim.clock.now
            await read.value
            return (issued, ended, code)
        }
        try await sim.run(for: .seconds(5))

        // Then the write failed with timeout 30 s after it was issued, still waiting, and was never
        // sent once the read was done
        #expect(code == .timeout)
        #expect(issued.duration(to: ended) == .seconds(30))
        #expect(try thermostat.value(of: .thermostatUnit) == unit)
        let writeRequests = Self.times(sim) {
            if case .attPDU(_, _, .toPeripheral, .writeRequest, _) = $0 { true } else { false }
        }
        #expect(writeRequests.count == 1)  // the link setup's own
    }

    /// A strict simulation with the thermostat connected, caches cold, and its temperature service.
    private static func connected() async throws -> (Simulation, SimulatedPeripheral, DeviceService) {
        let (sim, manager, thermostat) = try world()
        let connection = manager.connection(to: Self.thermostat)
        let service = connection.services.service(.thermostatTemperatureService)
        try await sim.run { try await connection.connect(timeout: .seconds(3)) }
        return (sim, thermostat, service)
    }

    /// Runs `body` in the simulation; returns how long it took in virtual time and the code it failed with.
    private static func timed(
        _ sim: Simulation, _ body: @escaping @Sendable () async throws(AirlinkError) -> Void
    ) async throws -> (Duration, AirlinkError.Code?) {
        try await sim.run {
            let issued = sim.clock.now
            var code: AirlinkError.Code?
            do throws(AirlinkError) { try await body() } catch { code = error.code }
            return (issued.duration(to: sim.clock.now), code)
        }
    }

    @Test func theFirstReadOfACharacteristicWhoseDiscoveryIsSlowTimesOutThirtySecondsAfterTheCall() async throws {
        // Given a connected thermostat, caches cold, that answers the next service discovery request
        // (Find By Type Value) and the next temperature read 20 s late each
        let (sim, thermostat, service) = try await Self.connected()
        thermostat.delayResponses(to: .opcode(.findByTypeValueRequest), by: .seconds(20))
        thermostat.delayResponses(to: .read(.thermostatTemperature), by: .seconds(20))

        // When the app reads the temperature, which gets its turn at once but must discover first
        let (took, code) = try await Self.timed(sim) { () async throws(AirlinkError) in
            _ = try await service.read(.thermostatTemperature)
        }

        // Then the read fails with timeout 30 s after the call, discovery included, not 40 s
        #expect(code == .timeout)
        #expect(took == .seconds(30))
    }

    @Test func enablingNotificationsOnFirstUseIsOneOperationBoundedByThirtySecondsAndNotRemembered() async throws {
        // Given a connected thermostat, caches cold, that answers the next service discovery 20 s late
        // and the next write of a Client Characteristic Configuration 20 s late
        let (sim, thermostat, service) = try await Self.connected()
        thermostat.delayResponses(to: .opcode(.findByTypeValueRequest), by: .seconds(20))
        thermostat.delayResponses(to: .write(.clientCharacteristicConfiguration), by: .seconds(20))

        // When the app enables notifications of the temperature
        let (took, code) = try await Self.timed(sim) { () async throws(AirlinkError) in
            _ = try await service.enableNotifications(for: .thermostatTemperature)
        }

        // Then it fails with timeout 30 s after the call, and the subscription is not kept for restoring
        #expect(code == .timeout)
        #expect(took == .seconds(30))
        #expect(service.notificationMode(of: .thermostatTemperature) == .disabled)
    }

    @Test func aFirstReadWhoseDiscoveryLeavesEnoughTimeSucceeds() async throws {
        // Given a connected thermostat, caches cold, that answers the next service discovery 20 s late
        // and the next temperature read 5 s late
        let (sim, thermostat, service) = try await Self.connected()
        thermostat.delayResponses(to: .opcode(.findByTypeValueRequest), by: .seconds(20))
        thermostat.delayResponses(to: .read(.thermostatTemperature), by: .seconds(5))

        // When the app reads the temperature
        let (took, code) = try await Self.timed(sim) { () async throws(AirlinkError) in
            _ = try await service.read(.thermostatTemperature)
        }

        // Then the read succeeds, within the 30 s, and later reads run on the warm cache
        #expect(code == nil)
        #expect(took > Duration.seconds(25) && took < Duration.seconds(30))
        let (again, failure) = try await Self.timed(sim) { () async throws(AirlinkError) in
            _ = try await service.read(.thermostatTemperature)
        }
        #expect(failure == nil)
        #expect(again < Duration.seconds(1))
    }

    @Test func aDescriptorReadOnFirstUseIsBoundedByThirtySeconds() async throws {
        // Given a connected thermostat, caches cold, whose next characteristic discovery is 25 s late
        // and whose next descriptor discovery (Find Information) is never answered
        let (sim, thermostat, service) = try await Self.connected()
        thermostat.delayResponses(to: .opcode(.readByTypeRequest), by: .seconds(25))
        thermostat.neverRespond(to: .opcode(.findInformationRequest))

        // When the app reads the temperature's Client Characteristic Configuration
        let (took, code) = try await Self.timed(sim) { () async throws(AirlinkError) in
            _ = try await service.readDescriptor(.clientCharacteristicConfiguration, of: .thermostatTemperature)
        }

        // Then it fails with timeout 30 s after the call, not 25 s + 30 s
        #expect(code == .timeout)
        #expect(took == .seconds(30))
    }

    @Test func anAdapterBlipDuringTheBackOffDoesNotShortenIt() async throws {
        // Given a connected thermostat with a linear 2 s wait
        let (sim, manager, thermostat) = try Self.world()
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        try await sim.run { try await connection.connect(timeout: .seconds(3)) }

        // When the link drops, and the adapter goes off 0.5 s later and on 1 s later
        thermostat.dropLink(reason: .remoteUserTerminated)
        sim.radio.schedule(.powerOffAdapter, after: .milliseconds(500))
        sim.radio.schedule(.powerOnAdapter, after: .seconds(1))
        try await sim.run(for: .seconds(10))

        // Then the reconnection attempt starts 2 s after the loss, not at power-on
        let lost = try #require(
            Self.times(sim) { if case .layer(.event(.connection(_, .lost))) = $0 { true } else { false } }.first)
        let attempts = Self.times(sim) { if case .connecting = $0 { true } else { false } }
        #expect(attempts.count == 2)
        #expect(attempts.last.map { $0 - lost } == .seconds(2))
        #expect(connection.state.isConnected)
    }
}
