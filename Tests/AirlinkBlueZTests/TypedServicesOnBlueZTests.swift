import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkProfiles
import Synchronization
import Testing

@testable import AirlinkBlueZ

/// The typed thermostat and battery services, through the layers, on the BlueZ backend and the fake BlueZ.
@Suite(.fakeBlueZ(), .serialized)
struct TypedServicesOnBlueZTests {
    /// A device manager on the fixture, connected to `device` after discovering it.
    private func connect(_ fake: FakeBlueZ, _ device: DeviceID) async throws -> (DeviceManager, ConnectionManager) {
        let manager = DeviceManager(transport: try await fake.transport(), environment: .live())
        let discovery = try await manager.discover(timeout: .milliseconds(300))
        _ = await discovery.waitUntilStopped()
        let connection = manager.connection(to: device)
        try await connection.connect(timeout: .seconds(5))
        return (manager, connection)
    }

    @Test func theThermostatServiceReadsAndWritesThroughBlueZ() async throws {
        // Given the fixture's thermostat (21.50 °C, Celsius), connected through the layers
        let fake = try await FakeBlueZ.fresh()
        let (manager, connection) = try await connect(fake, "C0:FF:EE:00:00:01")
        defer { manager.shutdown() }
        let thermostat = ThermostatService(connection)

        // When the temperature is read, a set point of 22 °C written, and the unit set to Fahrenheit
        let before = try await thermostat.temperature()
        try await thermostat.setSetPoint(22)
        let stored = try await thermostat.temperature()
        try await thermostat.setUnit(.fahrenheit)
        let unit = try await thermostat.unit()
        let refused = await #expect(throws: AirlinkError.self) { try await thermostat.setSetPoint(3) }

        // Then the values went through BlueZ's GATT API both ways (the fixture stores what is written)
        #expect(before == ThermostatReading(temperature: Temperature(degrees: 21.5), unit: .celsius))
        #expect(stored.temperature == Temperature(degrees: 22))
        #expect(unit == .fahrenheit)
        #expect(refused?.code == .invalidArgument)
        await connection.disconnect()
    }

    @Test func theBatteryServiceReadsAndObservesThroughBlueZ() async throws {
        // Given the fixture's battery sensor (87 %), connected through the layers, with a level observer
        let fake = try await FakeBlueZ.fresh()
        let device: DeviceID = "F4:77:E2:00:00:02/random"
        let (manager, connection) = try await connect(fake, device)
        defer { manager.shutdown() }
        let battery = BatteryService(connection)
        let heard = Mutex<[BatteryLevel]>([])
        let (levels, heardLevel) = AsyncStream.makeStream(of: BatteryLevel.self)
        battery.addLevelObserver { level in
            heard.withLock { $0.append(level) }
            heardLevel.yield(level)
        }

        // When the level is read, notifications turned on, and the sensor notifies 50 %
        let level = try await battery.level()
        let notifying = await battery.setNotifying(true)
        let sent = try await fake.notify(FakeBlueZ.devicePath("F4:77:E2:00:00:02") + "/service000a/char000b", [50])
        let first = await firstWithin(levels, .seconds(5)) { $0 }

        // Then the level, the property and the observed value are right
        #expect(level == BatteryLevel(87))
        #expect(notifying && battery.isNotifying)
        #expect(sent)
        #expect(first == BatteryLevel(50), "no level observed within 5 s")
        #expect(heard.withLock { $0 } == [BatteryLevel(50)])
        await connection.disconnect()
    }
}
