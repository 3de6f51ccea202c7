import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing

/// `airlink record --transport bluez` against the fake BlueZ of Tests/Fixtures/bluez: what it records is what the
/// fixture serves, and the virtual radio replays it with the same handles.
@Suite(.fakeBlueZ(), .serialized) struct RecordOnBlueZTests {
    @Test func recordingTheFixturesThermostatGivesItsDatabaseAndTheReplayServesIt() async throws {
        // Given the fake BlueZ with its thermostat (Tests/Fixtures/bluez/thermostat.json)
        let (cli, path) = try await Self.fixtureThermostatRecorded()
        defer { cli.cleanUp() }

        // When it is recorded through --transport bluez (above)
        let recording = try DeviceRecording.load(path: path)

        // Then its services, characteristics, descriptors, handles and values are the fixture's
        let fixture = try Self.fixtureServices()
        #expect(recording.transport.hasPrefix("bluez"))
        #expect(recording.database.services.map(\.uuid) == fixture.map(\.uuid))
        for (recorded, served) in zip(recording.database.services, fixture) {
            #expect(recorded.handles.lowerBound == served.handle)
            #expect(recorded.characteristics.map(\.uuid) == served.characteristics.map(\.uuid))
            for (characteristic, expected) in zip(recorded.characteristics, served.characteristics) {
                #expect(characteristic.declarationHandle == expected.handle)
                #expect(characteristic.valueHandle == ATTHandle(expected.handle.rawValue + 1))
                // (a characteristic that cannot be read, such as Service Changed, is recorded without a value)
                #expect(characteristic.value?.bytes == (expected.readable ? expected.value : nil))
                #expect(characteristic.descriptors.map(\.handle) == expected.descriptors)
            }
        }
        #expect(recording.advertising?.txPower == 4)

        // And the virtual radio replays it with the same handles, 0x1800 and 0x1801 (with the recorded Generic
        // Attribute characteristics: BlueZ exports that service) laid out before them
        let simulation = Simulation(seed: 1, strict: true)
        _ = try simulation.add(try recording.peripheralSpec())
        let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
        let (replayed, _) = try await simulation.run {
            try await recorder.record(recording.id, options: RecordingOptions(duration: .seconds(1)))
        }
        let hidden: [BluetoothUUID] = [.genericAccess, .genericAttribute]
        #expect(
            replayed.database.services.filter { !hidden.contains($0.uuid) }
                == recording.database.services.filter { !hidden.contains($0.uuid) })
        #expect(
            replayed.database.services.first { $0.uuid == .genericAttribute }?.characteristics.map(\.uuid)
                == recording.database.services.first { $0.uuid == .genericAttribute }?.characteristics.map(\.uuid))
    }

    /// A fresh fake BlueZ's thermostat recorded through `--transport bluez` (1 s of advertising, 1 s of session): the
    /// CLI on that bus (its directory holds the recording) and the recording's path.
    static func fixtureThermostatRecorded() async throws -> (CLI, String) {
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        let path = cli.directory + "/thermostat.yaml"
        let result = try await cli.run(
            "record", World.thermostat, "--transport", "bluez", "--advertising", "1s", "--duration", "1s", "--out",
            path)
        #expect(result.status == 0, "\(result)")
        return (cli, path)
    }

    /// A service of the fixture's thermostat: its handle, and per characteristic its handle, value and
    /// descriptors' handles.
    struct FixtureService {
        var uuid: BluetoothUUID
        var handle: ATTHandle
        var characteristics:
            [(uuid: BluetoothUUID, handle: ATTHandle, value: [UInt8], readable: Bool, descriptors: [ATTHandle])]
    }

    static func fixtureServices() throws -> [FixtureService] {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let data = try Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/bluez/thermostat.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let peripheral = try #require((json["peripherals"] as? [[String: Any]])?.first)
        return try (peripheral["services"] as? [[String: Any]] ?? []).map { service in
            FixtureService(
                uuid: try #require(BluetoothUUID(service["uuid"] as? String ?? "")),
                handle: ATTHandle(UInt16(service["handle"] as? Int ?? 0)),
                characteristics: try (service["characteristics"] as? [[String: Any]] ?? []).map { characteristic in
                    (
                        try #require(BluetoothUUID(characteristic["uuid"] as? String ?? "")),
                        ATTHandle(UInt16(characteristic["handle"] as? Int ?? 0)),
                        try GATTValueFormat.hex.bytes(of: characteristic["value"] as? String ?? ""),
                        (characteristic["flags"] as? [String] ?? []).contains("read"),
                        (characteristic["descriptors"] as? [[String: Any]] ?? []).map {
                            ATTHandle(UInt16($0["handle"] as? Int ?? 0))
                        }
                    )
                })
        }
    }
}
