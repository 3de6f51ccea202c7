import AirlinkCore
import AirlinkTestKit
import Foundation
import Testing

/// Every command that names a device, run on a replayed recording (`--transport sim:PATH`): one of the simulated
/// thermostat, and one of the fake BlueZ's thermostat recorded through `--transport bluez`.
@Suite(.fakeBlueZ(), .serialized) struct CommandsOnRecordingsTests {
    /// The commands, with their arguments, that take the recording as their world.
    static func commands(_ id: String, directory: String) -> [[String]] {
        let temperature = [id, World.temperatureService, World.temperature]
        return [
            ["scan", "--timeout", "2s"], ["connect", id], ["read"] + temperature, ["write"] + temperature + ["0x3e08"],
            ["subscribe"] + temperature + ["--duration", "3s"], ["thermostat", id, "get"],
            ["thermostat", id, "set", "22"], ["thermostat", id, "unit", "fahrenheit"], ["battery", id],
            ["record", id, "--duration", "2s", "--out", directory + "/again.yaml"],
        ]
    }

    /// Runs every command on the recording at `path`, then `devices` and `forget` on the registry they filled.
    func runEveryCommand(on path: String, _ cli: CLI, id: String) async throws {
        for command in Self.commands(id, directory: cli.directory) {
            let result = try await cli.run(command + ["--transport", "sim:" + path])
            #expect(result.status == 0, "airlink \(command.joined(separator: " ")): \(result)")
            // subscribe prints the values that arrive within its duration: a short recording may hold none
            if command[0] != "subscribe" {
                #expect(!result.stdout.isEmpty, "airlink \(command.joined(separator: " ")) printed nothing")
            }
        }
        _ = try DeviceRecording.load(path: cli.directory + "/again.yaml")
        let devices = try await cli.run("devices")
        #expect(devices.status == 0 && devices.stdout.contains(id), "\(devices)")
        let forget = try await cli.run("forget", id)
        #expect(forget.status == 0, "\(forget)")
    }

    @Test func everyCommandRunsOnASimulatedRecording() async throws {
        // Given the simulated thermostat recorded with a set point written
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/thermostat.yaml"
        let record = try await cli.run(
            "record", World.thermostat, "--duration", "3s", "--write", World.temperature + "=c409", "--out", path)
        #expect(record.status == 0, "\(record)")

        // When every command that names a device runs on its replay, then every one succeeds
        try await runEveryCommand(on: path, cli, id: World.thermostat)
    }

    @Test func everyCommandRunsOnABlueZRecording() async throws {
        // Given the fake BlueZ's thermostat recorded through --transport bluez
        let (cli, path) = try await RecordOnBlueZTests.fixtureThermostatRecorded()
        defer { cli.cleanUp() }

        // When every command that names a device runs on its replay, then every one succeeds
        try await runEveryCommand(on: path, cli, id: World.thermostat)
    }

    @Test func aReplayedScanResponseShowsToActiveScansOnly() async throws {
        // Given a recording of the simulated thermostat, whose scan response carries its complete name
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/thermostat.yaml"
        #expect(try await cli.run("record", World.thermostat, "--duration", "1s", "--out", path).status == 0)

        // When its replay is scanned actively, then passively
        let active = try await cli.run("scan", "--timeout", "2s", "--transport", "sim:" + path)
        let passive = try await cli.run("scan", "--timeout", "2s", "--passive", "--transport", "sim:" + path)

        // Then the active scan shows the complete name and the manufacturer data of the scan response, the passive
        // one the advertised shortened name alone
        #expect(active.stdout.contains("Thermostat ") && active.stdout.contains("0xa1b2"), "\(active)")
        #expect(passive.stdout.contains("Thermost ") && !passive.stdout.contains("0xa1b2"), "\(passive)")
    }
}
