import AirlinkBlueZTestSupport
import Foundation
import Testing

/// A connecting command on BlueZ finds a device BlueZ does not list (after `forget`, `refresh-cache` or a restart of
/// bluetoothd, BlueZ has no Device1 object for it until a scan hears it) by scanning for it first, within
/// `--connect-timeout`.
@Suite(.fakeBlueZ(), .serialized) struct ForgottenDeviceOnBlueZTests {
    @Test func aReadScansForADeviceBlueZForgotAndReads() async throws {
        // Given the thermostat connected once, then forgotten by BlueZ (its objects removed, as `bluetoothctl remove`
        // or a restart of bluetoothd leaves it)
        let fake = try await FakeBlueZ.fresh()
        let (cli, registry) = try await CLI.thermostatConnectedOnce(on: fake)
        defer { cli.cleanUp() }
        try await fake.removeDevice(FakeBlueZ.devicePath(World.thermostat), abrupt: true)
        let before = try await fake.callLog().count

        // When reading it without scanning first
        let read = try await cli.run(
            "read", World.thermostat, World.temperatureService, World.temperature, "--format", "int16",
            "--transport", "bluez", "--registry", registry)

        // Then the command scanned, heard it, connected and read
        #expect(read.status == 0, "\(read)")
        #expect(read.stdout.contains("(int16 "), "\(read)")
        let log = try await fake.callLog().dropFirst(before).compactMap { $0["method"] as? String }
        let scanned = try #require(log.firstIndex(of: "StartDiscovery"), "\(log)")
        #expect(log[scanned...].contains("Connect"), "\(log)")
    }

    @Test func aDeviceCommandScansForADeviceBlueZDoesNotList() async throws {
        // Given the fake BlueZ, which lists no device before a scan (as bluetoothd just restarted)
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When the battery command names the battery by its address alone
        let result = try await cli.run("battery", "F4:77:E2:00:00:02", "--transport", "bluez", "--json")

        // Then it scanned, heard the battery at its random address, and read its level
        #expect(result.status == 0, "\(result)")
        let report = try #require(try result.json() as? [String: Any], "\(result)")
        #expect(report["level"] is Int && report["device"] as? String == "F4:77:E2:00:00:02/random", "\(result)")
        let log = try await fake.callLog().compactMap { $0["method"] as? String }
        let scanned = try #require(log.firstIndex(of: "StartDiscovery"), "\(log)")
        #expect(log[scanned...].contains("Connect"), "\(log)")
    }

    @Test func aDeviceNotHeardFailsWithinTheConnectTimeoutSayingSo() async throws {
        // Given the fake BlueZ, where nothing advertises at C0:FF:EE:00:00:99
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }

        // When connecting to it with a one-second connect timeout
        let result = try await cli.run(
            "connect", "C0:FF:EE:00:00:99", "--transport", "bluez", "--connect-timeout", "1s", "--registry",
            cli.directory + "/devices.json")

        // Then the command scanned for it, and fails saying it was not heard and what to do
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("deviceNotFound"), "\(result)")
        #expect(result.stderr.contains("not heard within 1"), "\(result)")
        #expect(result.stderr.contains("--connect-timeout"), "\(result)")
        let log = try await fake.callLog().compactMap { $0["method"] as? String }
        #expect(log.contains("StartDiscovery") && !log.contains("Connect"), "\(log)")
    }
}
