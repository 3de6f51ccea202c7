import AirlinkBlueZTestSupport
import Testing

extension CLI {
    /// The CLI on the fake BlueZ's bus, with the thermostat connected once through it as a user would: a scan,
    /// then `connect` with a registry, which caches the thermostat's database. Call `cleanUp()` when done.
    ///
    /// - Returns: the CLI and the registry's path.
    static func thermostatConnectedOnce(on fake: FakeBlueZ) async throws -> (cli: CLI, registry: String) {
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        let registry = cli.directory + "/devices.json"
        let scan = try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms")
        #expect(scan.status == 0, "\(scan)")
        let connected = try await cli.run("connect", World.thermostat, "--transport", "bluez", "--registry", registry)
        #expect(connected.status == 0, "\(connected)")
        return (cli, registry)
    }
}
