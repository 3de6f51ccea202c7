import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// GATT caching's figures (Docs/GATTCaching.md): reconnection to ready (from `reconnected` to the last subscription
/// restored), in virtual time and ATT requests, with and without a valid cache, for the thermostat and the SensorTag.
/// Prints them (`swift test --filter ReconnectionCacheFigureTests`) and checks the cache saves round trips.
@Suite struct ReconnectionCacheFigureTests {
    struct Figure: CustomStringConvertible {
        let time: Double
        let requests: Int
        var description: String { "\(Int((time * 1000).rounded())) ms, \(requests) ATT requests" }
    }

    /// Connects to `spec`, enables notifications of `subscriptions`, drops the link and measures the reconnection.
    static func measure(
        _ spec: PeripheralSpec, _ subscriptions: [(BluetoothUUID, BluetoothUUID)], caching: DatabaseCaching
    ) async throws -> Figure {
        let sim = Simulation(seed: 3, strict: true)
        let peripheral = try sim.add(spec)
        let manager = DeviceManager(
            transport: sim.radio, environment: sim.environment, configuration: .init(databaseCaching: caching),
            registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
        let connection = manager.connection(
            to: spec.id, reconnection: .linear(wait: .milliseconds(100), attempts: 3, timeout: .seconds(3)))
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            for (service, characteristic) in subscriptions {
                _ = try await connection.services.service(service).enableNotifications(for: characteristic)
            }
        }
        peripheral.dropLink(reason: .supervisionTimeout)
        try await sim.run(for: .seconds(5))
        let records = sim.trace.records
        let start = try #require(
            records.firstIndex { record in
                if case .layer(.event(.connection(_, .reconnected))) = record.event { true } else { false }
            })
        let restored = records.indices.filter { index in
            if case .layer(.event(.services(_, .notificationsRestored))) = records[index].event { true } else { false }
        }
        #expect(restored.count == subscriptions.count)
        let end = try #require(restored.last)
        let requests = records[start...end].pdusSent.count
        manager.shutdown()
        let elapsed = (records[end].time.offset - records[start].time.offset).components
        return Figure(
            time: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, requests: requests)
    }

    @Test func theCacheShortensReconnectionToReady() async throws {
        let devices: [(String, PeripheralSpec, [(BluetoothUUID, BluetoothUUID)])] = [
            ("thermostat", .thermostat(), [(.thermostatBatteryService, .thermostatBatteryLevel)]),
            (
                "SensorTag", .sensorTag(),
                [
                    (.sensorTagIRTemperatureService, .sensorTagIRTemperatureData),
                    (.sensorTagAccelerometerService, .sensorTagAccelerometerData),
                    (.sensorTagHumidityService, .sensorTagHumidityData),
                    (.sensorTagMagnetometerService, .sensorTagMagnetometerData),
                    (.sensorTagBarometerService, .sensorTagBarometerData),
                    (.sensorTagGyroscopeService, .sensorTagGyroscopeData),
                ]
            ),
        ]
        for (name, spec, subscriptions) in devices {
            // Given the device with its subscriptions; When the link drops and comes back, with and without cache
            let without = try await Self.measure(spec, subscriptions, caching: .off)
            let with = try await Self.measure(spec, subscriptions, caching: .verified)
            print("reconnection to ready, \(name): without cache \(without); with a valid cache \(with)")
            // Then the cache costs fewer round trips and less time
            #expect(with.requests < without.requests)
            #expect(with.time < without.time)
        }
    }

    /// 24 virtual hours of the thermostat's link lost every 5 minutes (288 reconnections, linear back-off), its
    /// battery level subscribed and restored after each: the ATT requests sent, and the wall time the run took.
    static func dayOfLosses(caching: DatabaseCaching, hours: Int) async throws -> (requests: Int, wall: Duration) {
        let clock = ContinuousClock()
        let started = clock.now
        let sim = Simulation(seed: 3, strict: false)
        let peripheral = try sim.add(.thermostat())
        let manager = DeviceManager(
            transport: sim.radio, environment: sim.environment, configuration: .init(databaseCaching: caching),
            registry: DeviceRegistry(repository: InMemoryDeviceRepository()))
        let connection = manager.connection(
            to: PeripheralSpec.thermostat().id,
            reconnection: .linear(wait: .seconds(2), attempts: 3, timeout: .seconds(3)))
        try await sim.run {
            try await connection.connect(timeout: .seconds(3))
            _ = try await connection.services.service(.thermostatBatteryService).enableNotifications(
                for: .thermostatBatteryLevel)
        }
        for _ in 0..<(hours * 12) {
            try await sim.run(for: .seconds(300))
            peripheral.dropLink(reason: .supervisionTimeout)
        }
        try await sim.run(for: .seconds(60))
        let requests = sim.trace.records.pdusSent.count
        #expect(connection.state.isConnected)
        manager.shutdown()
        return (requests, clock.now - started)
    }

    @Test func aDayOfLossesWithAndWithoutTheCache() async throws {
        // Given a day of losses; When it runs without the cache, then with it
        let without = try await Self.dayOfLosses(caching: .off, hours: 24)
        let with = try await Self.dayOfLosses(caching: .verified, hours: 24)
        print(
            "24 virtual hours, 288 losses: without cache \(without.requests) ATT requests in \(without.wall); "
                + "with the cache \(with.requests) ATT requests in \(with.wall)")
        // Then the cache sends fewer requests (wall times are printed, not judged: the machine is shared)
        #expect(with.requests < without.requests)
    }
}
