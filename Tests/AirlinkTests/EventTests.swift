import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

@Suite struct EventTests {
    @Test func everyLayerPublishesOnOneStreamThatCanBeFiltered() async throws {
        // Given a device manager with a stream of all events and one of a single device's
        let world = try TestWorld.make(peripherals: [.thermostat(), .tracker("Tracker", id: "C0:FF:EE:00:00:02")])
        let manager = world.manager()
        let all = Recorder.recording(manager.events(), in: world.sim.environment)
        let thermostat = Recorder.recording(manager.events(for: "C0:FF:EE:00:00:01"), in: world.sim.environment)
        let losses = Recorder.recording(
            manager.events { if case .connection(_, .lost) = $0 { true } else { false } }, in: world.sim.environment)

        // When the app discovers, connects, enables notifications, and the link drops
        try await world.sim.run {
            let discovery = try await manager.discover(timeout: .seconds(1))
            await world.radio.advertise("C0:FF:EE:00:00:01")
            await world.radio.advertise("C0:FF:EE:00:00:02")
            await discovery.waitUntilStopped()
            let connection = manager.connection(to: "C0:FF:EE:00:00:01")
            try await connection.connect(timeout: .seconds(1))
            try await connection.services.service(.battery).enableNotifications(for: .batteryLevel)
            await world.radio.dropLink("C0:FF:EE:00:00:01", reason: .supervisionTimeout)
        }

        // Then the whole stream saw every layer's events in order, the device's stream its own, and
        // the filtered stream only the loss, with its typed error, whose message names the reason
        #expect(
            all.values.map(\.name) == [
                "started", "discovered", "discovered", "stopped", "connected", "notificationsChanged", "lost",
            ])
        #expect(thermostat.values.map(\.name) == ["discovered", "connected", "notificationsChanged", "lost"])
        guard case .connection(let device, .lost(let error)) = losses.values.first else {
            Issue.record("expected a loss, got \(losses.values)")
            return
        }
        #expect(device == "C0:FF:EE:00:00:01")
        #expect(error.code == .linkLost)
        #expect(error.message == "the link to C0:FF:EE:00:00:01 was lost (Connection Timeout (0x08))")
        #expect(error.description == "linkLost: the link to C0:FF:EE:00:00:01 was lost (Connection Timeout (0x08))")
        // And every event went to the trace as a typed record, in the same order, rendered as its description
        #expect(world.layerEvents.map(\.event) == all.values)
        #expect(world.sim.trace.events(in: "event") == all.values.map(\.description))
    }
}
