import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import AirlinkTransportContract
import Foundation
import Testing

/// The fake BlueZ's peripherals are exported from the same specs the virtual radio runs.
///
/// Re-export them with `RECORD_FIXTURES=1 swift test --filter FixtureExportTests`, and review the diff.
@Suite struct FixtureExportTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/bluez")

    @Test(arguments: [
        ("thermostat.json", ContractPeripherals.thermostat), ("battery.json", ContractPeripherals.battery),
    ])
    func fixtureFileIsTheSpecExported(file: String, spec: PeripheralSpec) throws {
        // Given the description the spec exports, with the radio's handles
        let exported = try BlueZFixtureDescription([spec], rssi: ContractPeripherals.rssi)
        let url = Self.fixtures.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["RECORD_FIXTURES"] == "1" {
            try exported.json().write(to: url)
        }

        // Then the fixture file says the same
        let stored = try JSONDecoder().decode(BlueZFixtureDescription.self, from: Data(contentsOf: url))
        #expect(stored == exported, "re-export with RECORD_FIXTURES=1 and review the diff")
    }

    @Test func exportedHandlesAreTheRadiosHandles() throws {
        // Given the thermostat's database as the virtual radio lays it out
        let database = try AttributeDatabase(ContractPeripherals.thermostat.gattDefinition)
        let description = try BlueZFixtureDescription([ContractPeripherals.thermostat])
        let service = description.peripherals.first?.services.first {
            $0.uuid == BluetoothUUID.thermostatTemperatureService.uuidString
        }
        let temperature = try #require(service?.characteristics.first)

        // Then the exported declaration precedes the radio's value handle, and the CCCD follows it
        let value = try #require(database.valueHandle(of: .thermostatTemperature))
        #expect(temperature.handle + 1 == Int(value.rawValue))
        #expect(temperature.descriptors.map(\.handle) == [Int(value.rawValue) + 1, Int(value.rawValue) + 2])
        #expect(temperature.descriptors.first?.uuid == BluetoothUUID.clientCharacteristicConfiguration.uuidString)
        #expect(temperature.value == "6608")
    }
}
