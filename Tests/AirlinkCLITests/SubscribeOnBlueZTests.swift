import AirlinkBlueZTestSupport
import Foundation
import Testing

/// `airlink subscribe` on the fake BlueZ when the link goes away: it says so and exits 4, with or
/// without a reconnection strategy (once it gives up); it never waits forever.
@Suite(.fakeBlueZ(), .serialized) struct SubscribeOnBlueZTests {
    let thermostatPath = FakeBlueZ.devicePath(World.thermostat)
    let temperaturePath = FakeBlueZ.devicePath(World.thermostat) + "/service000a/char000b"

    /// Starts `airlink subscribe` on the thermostat's temperature (after a scan, so BlueZ knows it),
    /// and returns once a notified value was printed.
    private func subscribed(_ fake: FakeBlueZ, _ cli: CLI, _ extra: [String] = []) async throws -> CLI.Running {
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)
        let running = try cli.start(
            [
                "subscribe", World.thermostat, World.temperatureService, World.temperature, "--transport", "bluez",
                "--registry", cli.directory + "/devices.json",
            ] + extra)
        try await fake.waitForCall("StartNotify", within: .seconds(10))
        #expect(try await fake.notify(temperaturePath, [0x66, 0x08]))
        try await running.waitForOutput(containing: "6608")
        return running
    }

    @Test func peerDisconnectingEndsTheSubscription() async throws {
        // Given a subscription that printed a value, without --reconnect
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let running = try await subscribed(fake, cli)

        // When the peer disconnects
        try await fake.dropLink(thermostatPath, reason: "org.bluez.Reason.Remote")

        // Then subscribe reports the loss and exits 4
        let result = try #require(try await running.wait(within: .seconds(10)), "subscribe still ran 10 s later")
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("was lost after 1 value"), "\(result.stderr)")
    }

    @Test func adapterGoingOffEndsTheSubscription() async throws {
        // Given a subscription that printed a value, without --reconnect
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let running = try await subscribed(fake, cli)

        // When the adapter goes off
        try await fake.powerOffFirst(linkDelay: .zero)

        // Then subscribe reports the loss and exits 4
        let result = try #require(try await running.wait(within: .seconds(10)), "subscribe still ran 10 s later")
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("was lost"), "\(result.stderr)")
        try await fake.setPowered(true)
    }

    @Test func reconnectionGivingUpEndsTheSubscription() async throws {
        // Given a subscription with --reconnect linear:200ms,2,500ms that printed a value
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let running = try await subscribed(fake, cli, ["--reconnect", "linear:200ms,2,500ms"])

        // When BlueZ removes the device, so that no reconnection can succeed
        try await fake.removeDevice(thermostatPath, abrupt: false)

        // Then subscribe follows the strategy, says it gave up, and exits 4
        let result = try #require(try await running.wait(within: .seconds(10)), "subscribe still ran 10 s later")
        #expect(result.status == 4, "\(result)")
        #expect(result.stderr.contains("reconnecting gave up"), "\(result.stderr)")
    }
}
