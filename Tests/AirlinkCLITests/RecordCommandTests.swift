import AirlinkCore
import AirlinkProfiles
import AirlinkTestKit
import Foundation
import Testing

/// `airlink record` and `--transport sim:RECORDING`, run as a user runs them.
@Suite struct RecordCommandTests {
    /// The writes that turn every sensor of the tag on, the barometer's calibration read first (0x02).
    static let sensorTagWrites = [
        "F000AA02-0451-4000-B000-000000000000=01", "F000AA12-0451-4000-B000-000000000000=01",
        "F000AA22-0451-4000-B000-000000000000=01", "F000AA32-0451-4000-B000-000000000000=01",
        "F000AA42-0451-4000-B000-000000000000=02", "F000AA42-0451-4000-B000-000000000000=01",
        "F000AA52-0451-4000-B000-000000000000=07",
    ]

    @Test func aReplayedSensorTagRecordingGivesTheRecordedReadings() async throws {
        // Given the simulated SensorTag recorded for 10 s with every sensor on (no write window: every reading is
        // the session's, replayed at its time whatever the replay's own writes)
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/devices/tag.yaml"
        let record = try await cli.run(
            ["record", "BC:6A:29:00:00:03", "--duration", "10s", "--write-window", "0s", "--out", path]
                + Self.sensorTagWrites.flatMap { ["--write", $0] })
        #expect(record.status == 0, "\(record)")
        #expect(FileManager.default.fileExists(atPath: cli.directory + "/devices/tag.capture.jsonl"))
        let recording = try DeviceRecording.load(path: path)

        // When `airlink sensortag` runs on the replay
        let result = try await cli.run("sensortag", "--transport", "sim:" + path, "--json", "--count", "3")

        // Then it prints the readings the recorded notifications decode to, in their order
        #expect(result.status == 0, "\(result)")
        let printed = result.stdout.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        let expected = try Self.readings(of: recording)
        #expect(printed.count >= 18)
        #expect(printed.count <= expected.count)
        for (line, reading) in zip(printed, expected) {
            #expect(line["sensor"] as? String == reading.name)
            #expect(Self.figure(of: line) == Self.figure(of: reading), "\(line) \(reading)")
        }
    }

    @Test func aRecordingWithARedactedAddressAndSerialKeepsTheirLengths() async throws {
        // Given the battery recorded with its address and serial number redacted
        let cli = try CLI()
        defer { cli.cleanUp() }
        let path = cli.directory + "/battery.yaml"
        let result = try await cli.run(
            "record", "B4:77:E2:00:00:02", "--duration", "1s", "--redact", "address", "--redact", "serial", "--out",
            path)
        #expect(result.status == 0, "\(result)")

        // When it is read back
        let recording = try DeviceRecording.load(path: path)

        // Then the address is the documentation one, the serial and System ID blanked with their lengths kept
        #expect(recording.id == DeviceRecording.redactedAddress)
        #expect(recording.redacted == ["address", "serial"])
        #expect(recording.database.characteristic(.serialNumberString)?.value == .bytes(Array("0000".utf8)))
        #expect(recording.database.characteristic(.systemID)?.value == .bytes([UInt8](repeating: 0, count: 8)))
        let capture = try String(contentsOfFile: cli.directory + "/battery.capture.jsonl", encoding: .utf8)
        #expect(!capture.contains("e277b4"))
    }

    @Test(arguments: [
        (["record", "C0:FF:EE:00:00:01", "--write", "2A19"], "--write 2A19 is not UUID=HEX"),
        (["record", "C0:FF:EE:00:00:01", "--redact", "everything"], "--redact \"everything\" is nothing to redact"),
        (["record", "C0:FF:EE:00:00:01", "--subscribe", "2A19,nope"], "--subscribe nope is not a UUID"),
        (["record", "C0:FF:EE:00:00:01", "--out", "x.json"], "not a .yaml path"),
        (["record", "C0:FF:EE:00:00:01", "--duration", "0s"], "--duration"),
    ])
    func badFlagsAreUsageErrors(_ arguments: [String], _ message: String) async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
    }

    /// The recorded notifications of the tag's sensors and keys, decoded as `airlink sensortag` decodes them.
    static func readings(of recording: DeviceRecording) throws -> [SensorTagReading] {
        let calibrationBytes = try #require(recording.database.characteristic(.sensorTagBarometerCalibration)?.value)
        let calibration = try SensorTagBarometerCalibration(gattBytes: try #require(calibrationBytes.bytes))
        return try recording.session.notifications.map { notification in
            let (_, characteristic) = try #require(recording.database.characteristic(valueHandle: notification.handle))
            if characteristic.uuid == .sensorTagSimpleKeysData {
                return .keys(try SensorTagKeys(gattBytes: notification.value))
            }
            let sensor = try #require(SensorTagSensor.allCases.first { $0.dataUUID == characteristic.uuid })
            return try SensorTagReading(decoding: notification.value, of: sensor, calibration: calibration)
        }
    }

    /// One figure of a printed reading, enough to tell readings apart.
    static func figure(of line: [String: Any]) -> String {
        let values = line["values"] as? [String: Double] ?? [:]
        let keys = line["keys"] as? [String]
        let names = ["objectCelsius", "xG", "relativeHumidityPercent", "xMicrotesla", "pressurePascals"]
        if let name = names.first(where: { values[$0] != nil }) { return rounded(values[name]!) }
        if let x = values["xDegreesPerSecond"] { return rounded(x) }
        return keys.map { $0.joined(separator: ",") } ?? "?"
    }

    /// The same figure of a decoded reading.
    static func figure(of reading: SensorTagReading) -> String {
        switch reading {
        case .irTemperature(let value): rounded(value.objectCelsius)
        case .accelerometer(let value): rounded(value.g.x)
        case .humidity(let value): rounded(value.relativeHumidity)
        case .magnetometer(let value): rounded(value.microtesla.x)
        case .barometer(let value): rounded(value.pressurePascals)
        case .gyroscope(let value): rounded(value.degreesPerSecond.x)
        case .keys(let keys):
            [(SensorTagKeys.left, "left"), (.right, "right"), (.side, "side")].filter { keys.contains($0.0) }.map(\.1)
                .joined(separator: ",")
        }
    }

    /// Twelve significant digits: JSON's text of a double may differ from it in the last digits.
    static func rounded(_ value: Double) -> String { String(format: "%.12g", value) }
}
