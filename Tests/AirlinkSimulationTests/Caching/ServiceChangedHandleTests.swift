import AirlinkCore
import AirlinkTestSupport
import Testing

@testable import AirlinkSimulation

/// The virtual radio's client never uses a handle its peripheral said changed (Core Spec Vol 3, Part G,
/// 2.5.2 and 7.1): after a Service Changed indication, operations on the changed range are refused until
/// a service discovery learns the database again, and a discovery under way fails.
@Suite struct ServiceChangedHandleTests {
    /// The sensor's new database: the counter's service gone, so its old value handle now belongs to the
    /// battery level.
    static func moveHandles(_ peripheral: SimulatedPeripheral) {
        peripheral.changeDatabase {
            Service(.battery) { Characteristic(.batteryLevel, properties: [.read, .notify], value: UInt8(42)) }
        }
    }

    /// Connects to the sensor and finds the counter.
    static func connectedCounter(_ sim: Simulation) async throws -> GATTCharacteristic {
        let radio = sim.radio
        return try await sim.run {
            _ = try await radio.connect(Fixture.sensorID, timeout: .seconds(3))
            let service = try #require(
                try await radio.discoverServices(Fixture.sensorID, uuids: [Fixture.service]).first)
            return try #require(
                try await radio.discoverCharacteristics(Fixture.sensorID, of: service, uuids: [Fixture.counter]).first)
        }
    }

    /// The error `body` throws, or `nil`.
    static func error(_ body: () async throws(AirlinkError) -> Void) async -> AirlinkError? {
        do {
            try await body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aHandleFoundBeforeServiceChangedIsRefusedUntilTheServicesAreDiscoveredAgain() async throws {
        // Given the counter's handle, found before the sensor changed its database and indicated it
        let sim = Simulation(seed: 5, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        let counter = try await Self.connectedCounter(sim)
        Self.moveHandles(peripheral)
        try await sim.run(for: .milliseconds(500))
        let radio = sim.radio
        let handle = counter.valueHandle

        // When the client reads, writes and turns on notifications with the old handle
        let errors = try await sim.run {
            [
                await Self.error { () throws(AirlinkError) in _ = try await radio.read(Fixture.sensorID, handle: handle)
                },
                await Self.error { () throws(AirlinkError) in
                    try await radio.write(Fixture.sensorID, handle: handle, value: [1], type: .withoutResponse)
                },
                await Self.error { () throws(AirlinkError) in
                    try await radio.setNotifications(Fixture.sensorID, characteristic: counter, mode: .notify)
                },
            ]
        }

        // Then each is refused with databaseOutOfSync instead of reaching the battery level now at that handle
        #expect(errors.map { $0?.code } == [.databaseOutOfSync, .databaseOutOfSync, .databaseOutOfSync], "\(errors)")

        // And once the services are discovered again, the handle is used (it is the battery level's now)
        let value = try await sim.run {
            _ = try await radio.discoverServices(Fixture.sensorID, uuids: nil)
            return try await radio.read(Fixture.sensorID, handle: handle)
        }
        #expect(value == [42])
    }

    @Test func aDiscoveryUnderWayWhenServiceChangedArrivesFails() async throws {
        // Given a connected sensor
        let sim = Simulation(seed: 5, strict: true)
        let peripheral = try sim.add(Fixture.sensor())
        _ = try await Self.connectedCounter(sim)
        let radio = sim.radio

        // When the sensor changes its database while the client discovers its services
        let discovery = sim.spawn {
            await Self.error { () throws(AirlinkError) in
                _ = try await radio.discoverServices(Fixture.sensorID, uuids: nil)
            }
        }
        let error = try await sim.run { () async throws -> AirlinkError? in
            try await sim.clock.sleep(for: .milliseconds(1))
            Self.moveHandles(peripheral)
            return await discovery.value
        }

        // Then the discovery fails rather than return a database that may be the old one
        #expect(error?.code == .databaseOutOfSync, "\(String(describing: error))")
    }
}
