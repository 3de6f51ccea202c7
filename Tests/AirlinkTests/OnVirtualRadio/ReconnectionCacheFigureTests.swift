import Airlink
import AirlinkCore
import AirlinkProfiles
import AirlinkRegistry
import AirlinkSimulation
import Testing

/// Issue 15's figures: reconnection to ready (from `reconnected` to the last subscription restored), in virtual
/// time and ATT requests, with and without a valid cache, for the thermostat and the SensorTag. Prints them
/// (`swift test --filter ReconnectionCacheFigureTests`) and checks the cache saves round trips.
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
        let lines = sim.trace.lines
        let start = try #require(lines.firstIndex { $0.contains(" event ") && $0.contains(" reconnected ") })
        let restored = lines.indices.filter { lines[$0].contains(" notificationsRestored ") }
        #expect(restored.count == subscriptions.count)
        let end = try #require(restored.last)
        func time(_ line: String) -> Double { Double(line.dropFirst(2).prefix { $0 != " " }) ?? .nan }
        let requests = lines[start...end].filter { $0.contains(" att ") && $0.contains(" > ") }.count
        manager.shutdown()
        return Figure(time: time(lines[end]) - time(lines[start]), requests: requests)
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
}
