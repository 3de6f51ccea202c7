import Airlink
import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkProfiles
import AirlinkTransportContract
import Testing

@testable import AirlinkBlueZ

extension RealStackTests {
    /// The layers over `BlueZTransport` on the real stack: reconnection after a link loss the world causes and
    /// after an adapter power cycle the kernel causes, with the app's notifications restored each time.
    @Suite("The layers on the real Linux stack")
    struct RealStackLayersTests {
        /// The thermostat connected through the layers (reconnecting), its temperature notifying and observed.
        func connected(_ world: RealBlueZContractWorld) async throws -> (
            DeviceManager, ConnectionManager, CharacteristicValues, EventStream<AirlinkEvent>
        ) {
            let manager = DeviceManager(transport: try await world.makeTransport(), environment: .live())
            let discovery = try await manager.discover(timeout: .seconds(3))
            _ = await discovery.waitUntilStopped()
            let connection = manager.connection(
                to: world.thermostat, reconnection: .linear(wait: .seconds(1), attempts: 10, timeout: .seconds(10)))
            try await connection.connect(timeout: .seconds(15))
            let service = connection.services.service(.thermostatTemperatureService)
            let values = service.values(of: .thermostatTemperature)
            let events = manager.events(for: world.thermostat)
            try await service.enableNotifications(for: .thermostatTemperature)
            return (manager, connection, values, events)
        }

        /// Waits for the reconnection and the restoration of the notifications, then checks a value gets through.
        func reconnectsAndRestores(
            _ world: RealBlueZContractWorld, _ values: CharacteristicValues,
            _ events: EventStream<AirlinkEvent>
        ) async throws {
            let restored = await firstWithin(events, .seconds(60)) { event -> Result<Void, AirlinkError>? in
                switch event {
                case .services(_, .notificationsRestored): .success(())
                case .services(_, .notificationsRestoreFailed(_, _, let error)): .failure(error)
                case .connection(_, .gaveUp(let error)): .failure(error)
                default: nil
                }
            }
            let outcome = try #require(restored, "neither reconnected and restored, nor a failure, within 60 s")
            if case .failure(let error) = outcome { Issue.record("reconnecting or restoring failed: \(error)") }
            try await world.peripheralNotifies(
                world.thermostat, valueHandle: ContractHandles.temperature, value: [0x10, 0x09])
            let value = await firstWithin(values, .seconds(10)) { $0.bytes == [0x10, 0x09] ? $0.bytes : nil }
            #expect(value == [0x10, 0x09], "the value notified after the reconnection did not arrive")
        }

        @Test("a link the peripheral drops is reconnected, and the notifications come back")
        func linkLoss() async throws {
            let world = try await RealBlueZContractWorld.fresh()
            let (manager, connection, values, events) = try await connected(world)
            // When the thermostat drops the link (supervision timeout)
            try await world.peripheralDropsLink(world.thermostat)
            // Then the layers reconnect through bluetoothd and restore the notifications
            try await reconnectsAndRestores(world, values, events)
            await connection.disconnect()
            manager.shutdown()
            await world.stop()
        }

        @Test("an adapter the kernel powers off and on again: the layers wait, reconnect and restore")
        func adapterPowerCycle() async throws {
            let world = try await RealBlueZContractWorld.fresh()
            let (manager, connection, values, events) = try await connected(world)
            let index = String(world.adapter.dropFirst(3))
            // When the kernel powers the adapter off (btmgmt, the management interface), and on again
            try RealStackAdapter.runBtmgmt(["--index", index, "power", "off"])
            let lost = await firstWithin(events, .seconds(20)) { event -> Bool? in
                if case .connection(_, .lost) = event { true } else { nil }
            }
            #expect(lost == true, "the link loss of the power-off was not reported")
            try RealStackAdapter.runBtmgmt(["--index", index, "power", "on"])
            // Then the layers reconnect once it is on, and restore the notifications
            try await reconnectsAndRestores(world, values, events)
            await connection.disconnect()
            manager.shutdown()
            await world.stop()
        }
    }
}
