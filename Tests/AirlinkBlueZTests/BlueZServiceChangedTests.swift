import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkProfiles
import AirlinkTransportContract
import Testing

@testable import AirlinkBlueZ

/// Service Changed as BlueZ may report it: the GATT objects re-added one by one, with or without
/// `ServicesResolved` turning false and true again around them.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZServiceChangedTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let thermostatPath = FakeBlueZ.devicePath("C0:FF:EE:00:00:01")

    /// The thermostat's database moved to handle 0x0020: temperature value 0x0022, unit 0x0026,
    /// battery level 0x0029 (eight objects).
    static let moved = ContractPeripherals.movedThermostatJSON

    @Test func servicesChangedComesOnceTheObjectsAreBack() async throws {
        // Given a connected thermostat
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        let events = transport.events()

        // When its database changes and BlueZ re-adds the objects one by one, 40 ms apart
        try await fake.changeServicesSlowly(
            thermostatPath, json: Self.moved, interval: .milliseconds(40), resolveAgain: false)

        // Then .servicesChanged arrives once every object is back: discovery finds the whole database
        let changed = await BlueZContractWorld(fake: fake).first(events, within: .seconds(3)) { event -> Bool? in
            if case .servicesChanged = event { return true }
            return nil
        }
        #expect(changed == true)
        let services = try await transport.discoverServices(thermostat, uuids: nil)
        #expect(services.map(\.handles.lowerBound) == [ATTHandle(0x0020), ATTHandle(0x0027)])
        let characteristics = try await transport.discoverCharacteristics(
            thermostat, of: try #require(services.first), uuids: nil)
        #expect(characteristics.map(\.valueHandle) == [ATTHandle(0x0022), ATTHandle(0x0026)])
        await transport.disconnect(thermostat)
    }

    @Test(arguments: [false, true])
    func notificationsAreRestoredWhenTheObjectsComeBackOneByOne(resolveAgain: Bool) async throws {
        // Given the thermostat connected through the layers, its temperature observed and notifying
        let fake = try await FakeBlueZ.fresh()
        let manager = DeviceManager(transport: try await fake.transport(), environment: .live())
        defer { manager.shutdown() }
        let discovery = try await manager.discover(timeout: .milliseconds(300))
        _ = await discovery.waitUntilStopped()
        let connection = manager.connection(to: thermostat)
        try await connection.connect(timeout: .seconds(5))
        let service = connection.services.service(.thermostatTemperatureService)
        let values = service.values(of: .thermostatTemperature)
        let events = manager.events(for: thermostat)
        try await service.enableNotifications(for: .thermostatTemperature)

        // When Service Changed moves the database and BlueZ re-adds the objects one by one (with
        // ServicesResolved false, then true again, or without)
        try await fake.changeServicesSlowly(
            thermostatPath, json: Self.moved, interval: .milliseconds(40), resolveAgain: resolveAgain)

        // Then restoring the notifications succeeds (a failure would be reported, never silence)
        let restored = await firstWithin(events, .seconds(5)) { event -> Result<Void, AirlinkError>? in
            switch event {
            case .services(_, .notificationsRestored): .success(())
            case .services(_, .notificationsRestoreFailed(_, _, let error)): .failure(error)
            default: nil
            }
        }
        let outcome = try #require(restored, "neither restored nor a failure within 5 s")
        if case .failure(let error) = outcome { Issue.record("restoring failed: \(error)") }

        // And a value the thermostat notifies at its new handle reaches the observer
        #expect(try await fake.notify(thermostatPath + "/service0020/char0021", [0x10, 0x09]))
        let value = await firstWithin(values, .seconds(2)) { $0.bytes }
        #expect(value == [0x10, 0x09])
        await connection.disconnect()
    }

}
