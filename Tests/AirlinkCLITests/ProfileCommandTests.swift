import AirlinkCore
import AirlinkProfiles
import Foundation
import Testing

/// `sensortag`, `thermostat` and `battery` on the built-in simulated world, run as a user runs them.
@Suite struct ProfileCommandTests {
    @Test func batteryPrintsTheLevelOfTheSIGService() async throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        let result = try await cli.run("battery", "B4:77:E2:00:00:02")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("battery 87 % (Battery Service 0x180F)"))
    }

    @Test func thermostatSetsAPointInRangeAndRefusesOneOutside() async throws {
        // Given the CLI on the simulated thermostat (21 °C, accepting 5 to 35 °C)
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When a set point in range, then one out of range, is written
        let accepted = try await cli.run("thermostat", "C0:FF:EE:00:00:01", "set", "23.5")
        let refused = try await cli.run("thermostat", "C0:FF:EE:00:00:01", "set", "40")

        // Then the first is confirmed with the room's temperature, the second refused as a usage error naming the
        // limits
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout.contains("set point 23.50 °C"))
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.stderr.contains("set point 40 °C is outside what a thermostat accepts, 5.00 to 35.00 °C"))
    }

    @Test func sensorTagStreamsEverySensorDecodedAsJSONLines() async throws {
        // Given the CLI on the simulated SensorTag
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When one update of every sensor is streamed as JSON
        let result = try await cli.run("sensortag", "--count", "1", "--json")

        // Then each line is a reading, and every sensor (and the keys) reported, in SI units
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n")
        var sensors: Set<String> = []
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            sensors.insert(try #require(object["sensor"] as? String))
        }
        #expect(
            sensors.isSuperset(of: [
                "irTemperature", "humidity", "barometer", "accelerometer", "magnetometer", "gyroscope",
            ]), "\(sensors)")
        let humidity = try #require(
            lines.lazy.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["sensor"] as? String == "humidity" })
        let values = try #require(humidity["values"] as? [String: Double])
        let relative = try #require(values.first { $0.key.lowercased().contains("humidity") }?.value)
        #expect((0...100).contains(relative))
    }
}
