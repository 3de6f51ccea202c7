import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// Runs the guide's code (GuideExamples.swift) on the scripted transport.
@Suite struct GuideTests {
    @Test func theGuidesCodeRunsFromDiscoveryToNotifications() async throws {
        // Given a thermostat advertising every 100 ms
        let world = try TestWorld.make(peripherals: [.thermostat(), .tracker("Tracker", id: "C0:FF:EE:00:00:09")])
        let manager = world.manager()
        let events = Recorder.recording(
            guideEvents(manager: manager, device: "C0:FF:EE:00:00:01"), in: world.sim.environment)
        try await world.sim.run {
            await world.radio.startAdvertising("C0:FF:EE:00:00:01", every: .milliseconds(100))
            await world.radio.startAdvertising("C0:FF:EE:00:00:09", every: .milliseconds(100))
        }

        // When the guide's steps run in turn, the device notifying once subscribed, and the link dropping
        let (device, level, first) = try await world.sim.run {
            let device = try #require(try await guideDiscover(manager: manager))
            let connection = try await guideConnect(manager: manager, to: device)
            let level = try await guideReadAndWrite(connection: connection)
            world.sim.spawn {
                try? await world.sim.clock.sleep(for: .seconds(1))
                await world.radio.notify(device, .batteryLevel, [86])
            }
            let first = try await guideNotifications(connection: connection)
            await world.radio.dropLink(device, reason: .supervisionTimeout)
            try await world.sim.clock.sleep(for: .seconds(3))
            return (device, level, first)
        }

        // Then each step did what the guide says
        #expect(device == "C0:FF:EE:00:00:01")
        #expect(level == 87)
        #expect(first?.bytes == [86])
        #expect(events.values.map(\.name) == ["lost", "reconnected", "notificationsRestored"])
    }
}
