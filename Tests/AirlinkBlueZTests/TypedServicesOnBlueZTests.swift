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

    @Test func theBatteryServiceReadsAndStreamsThroughBlueZ() async throws {
        // Given the fixture's battery sensor (87 %), connected through the layers
        let fake = try await FakeBlueZ.fresh()
        let device: DeviceID = "F4:77:E2:00:00:02/random"
        let (manager, connection) = try await connect(fake, device)
        defer { manager.shutdown() }
        let battery = BatteryService(connection)

        // When the level is read, the levels streamed, and the sensor notifies 50 %
        let level = try await battery.level()
        let levels = try await battery.levels()
        let sent = try await fake.notify(FakeBlueZ.devicePath("F4:77:E2:00:00:02") + "/service000a/char000b", [50])
        let first = await firstWithin(levels, .seconds(5)) { $0 }

        // Then the level, the notification mode and the streamed value are right
        #expect(level == BatteryLevel(87))
        #expect(battery.service.notificationMode(of: .batteryLevel) == .notify)
        #expect(sent)
        #expect(first == BatteryLevel(50), "no level streamed within 5 s")
        await connection.disconnect()
    }
}
