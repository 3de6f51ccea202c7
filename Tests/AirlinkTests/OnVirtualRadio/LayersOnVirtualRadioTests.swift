import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// The layers on the virtual radio and the built-in simulated peripherals: the same code an app runs
/// on an adapter, over ATT as the radio speaks it, in virtual time.
@Suite struct LayersOnVirtualRadioTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    static let battery: DeviceID = "B4:77:E2:00:00:02"

    /// A strict simulation with the thermostat and the battery, and a device manager on its radio.
    private static func world(seed: UInt64 = 7) throws -> (Simulation, DeviceManager, [SimulatedPeripheral]) {
        let sim = Simulation(seed: seed, strict: true)
        let peripherals = try sim.add(SimulatedWorld([.thermostat(), .battery()]))
        return (sim, DeviceManager(transport: sim.radio, environment: sim.environment), peripherals)
    }

    @Test func discoveryCombinesNameAndServiceFiltersAndStopsByItself() async throws {
        // Given the two built-in peripherals advertising
        let (sim, manager, _) = try Self.world()

        // When the app discovers devices named "Batt…" that advertise the Battery service, for 2 s
        let (found, stop) = try await sim.run { () -> ([DeviceID], DiscoveryStopReason?) in
            let discovery = try await manager.discover(named: "Batt.*", services: [.battery], timeout: .seconds(2))
            await discovery.waitUntilStopped()
            return (discovery.devices.map(\.id), discovery.stopReason)
        }

        // Then only the battery is found, and the discovery stopped at its timeout, 2 virtual seconds in
        #expect(found == [Self.battery])
        #expect(stop == .timeout)
        #expect(sim.now.offset >= .seconds(2) && sim.now.offset < .seconds(3))
    }

    @Test func readsWritesAndObservesTheThermostatThroughTheLayers() async throws {
        // Given a connection to the thermostat (21 °C)
        let (sim, manager, _) = try Self.world()
        let connection = manager.connection(to: Self.thermostat)
        let temperatureService = connection.services.service(.thermostatTemperatureService)

        // When the app reads the temperature, subscribes, and writes a set point of 23 °C
        let (initial, observed) = try await sim.run { () -> (Int16, [Int16]) in
            try await connection.connect(timeout: .seconds(3))
            let initial = try await temperatureService.read(Int16.self, from: .thermostatTemperature)
            _ = try await temperatureService.enableNotifications(for: .thermostatTemperature)
            try await temperatureService.write(Int16(2300), to: .thermostatTemperature)
            var observed: [Int16] = []
            for await value in temperatureService.values(of: .thermostatTemperature) {
                observed.append(try Int16(gattBytes: value.bytes))
                if observed.count == 5 { break }
            }
            await connection.disconnect()
            return (initial, observed)
        }

        // Then it read 21.00 °C and saw the room warm toward the set point, 0.1 °C a second
        #expect(initial == 2100)
        #expect(observed == [2110, 2120, 2130, 2140, 2150])
    }

    @Test func reconnectsAfterLinkLossAtTheTimesTheStrategyPromises() async throws {
        // Given a connected thermostat and a linear strategy: 3 attempts, 2 s apart, 3 s each
        let (sim, manager, peripherals) = try Self.world()
        let thermostat = try #require(peripherals.first { $0.id == Self.thermostat })
        let connection = manager.connection(
            to: Self.thermostat, reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        let events = Recorder.recording(connection.events(), in: sim.environment)
        try await sim.run { try await connection.connect(timeout: .seconds(3)) }

        // When the first reconnection attempt is refused and the link drops
        thermostat.failNextConnects(1)
        thermostat.dropLink(reason: .supervisionTimeout)
        try await sim.run(for: .seconds(10))

        // Then the second attempt reconnects
        #expect(
            events.values.map(\.name) == ["connected", "lost", "willReconnect(3)", "willReconnect(2)", "reconnected"])
        #expect(connection.state.isConnected)
    }

    @Test func notificationsAreRestoredAfterAReconnection() async throws {
        // Given battery-level notifications enabled on the battery peripheral, with a linear strategy
        let (sim, manager, peripherals) = try Self.world()
        let battery = try #require(peripherals.first { $0.id == Self.battery })
        let connection = manager.connection(
            to: Self.battery, reconnection: .linear(wait: .seconds(1), attempts: 3, timeout: .seconds(3)))
        let service = connection.services.service(.battery)
        let restored = Recorder.recording(
            manager.events { event in
                if case .services(_, .notificationsRestored) = event { return true }
                return false
            }, in: sim.environment)
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await service.enableNotifications(for: .batteryLevel)
        }

        // When the link drops and comes back, and then the level changes
        battery.dropLink(reason: .supervisionTimeout)
        try await sim.run(for: .seconds(5))
        let value = try await sim.run { () -> [UInt8]? in
            var iterator = service.values(of: .batteryLevel).makeAsyncIterator()
            try battery.setValue(UInt8(42), of: .batteryLevel)
            return await iterator.next()?.bytes
        }

        // Then the app was told notifications were restored, and the new value arrived without it acting
        #expect(restored.values.count == 1)
        #expect(value == [42])
    }

    @Test func aSeededRunOfTheLayersGivesTheSameTrace() async throws {
        func trace() async throws -> String {
            let (sim, manager, peripherals) = try Self.world(seed: 3)
            let connection = manager.connection(
                to: Self.thermostat,
                reconnection: .exponential(
                    initialDelay: .seconds(1), maximumDelay: .seconds(8), attempts: 5, timeout: .seconds(3)))
            try await sim.run { try await connection.connect(timeout: .seconds(3)) }
            peripherals[0].failNextConnects(2)
            peripherals[0].dropLink(reason: .supervisionTimeout)
            try await sim.run(for: .seconds(60))
            return sim.trace.text
        }
        let first = try await trace()
        #expect(first.contains("reconnected"))
        #expect(try await trace() == first)
    }
}
