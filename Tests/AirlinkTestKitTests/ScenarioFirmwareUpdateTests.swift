import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Testing

@testable import AirlinkTestKit

/// Firmware updates in scenario files: `changeDatabase` with `serviceChanged` and `hash`, checked strictly, and a
/// peripheral's `genericAttribute` and `bondsWithCentrals`.
@Suite struct ScenarioFirmwareUpdateTests {
    static let base = """
        seed: 5
        duration: 4s
        world:
          - name: P1
            id: "E0:00:00:00:00:02"
            advertising: {interval: 100ms}
            services:
              - uuid: "F110"
                characteristics:
                  - {uuid: "F111", properties: [read], type: uint8, value: 1}
        """

    static let update = """
        services: [{uuid: "F120", characteristics: [{uuid: "F121", properties: [read], type: uint8, value: 2}]}]
        """

    /// The base scenario with more keys on its peripheral.
    static func withKeys(_ keys: String...) -> String {
        base.replacingOccurrences(
            of: "    advertising:", with: keys.map { "    \($0)\n" }.joined() + "    advertising:")
    }

    @Test func aStaleHashUpdateRunsAndIsTraced() async throws {
        // Given a firmware update at 2 s that tells no one and keeps its old hash
        let scenario = try Scenario.parse(
            Self.base + """

                timeline:
                  - {at: 2s, do: changeDatabase, device: P1, serviceChanged: false, hash: stale, \(Self.update)}
                client:
                  - device: P1
                """)

        // When it runs
        let result = try await ScenarioRunner().run(scenario)

        // Then the scenario line and the radio's fault line say what the firmware did
        // Both are free-form notes (`scenario`, `fault`; no typed record): their texts are matched.
        let records = result.trace.records
        let actions = records.notes(in: "scenario").map(\.text)
        #expect(actions.contains { $0.contains("changeDatabase P1 services=F120 silently stale-hash") }, "\(actions)")
        let faults = records.notes(in: "fault").map(\.text)
        #expect(faults.contains { $0.contains("changes its database silently, keeping the old hash") }, "\(faults)")
        #expect(result.violations.isEmpty, "\(result.violations)")
    }

    @Test(arguments: [
        ("serviceChange: false", "remove `serviceChange`"), ("hash: wrong", "expected recomputed"),
    ])
    func aMisspeltOrUnknownChangeDatabaseKeyIsRefused(_ key: String, _ message: String) {
        // Given a changeDatabase entry with a key it does not take, or a hash it does not know
        let text =
            Self.base + """

                timeline:
                  - {at: 2s, do: changeDatabase, device: P1, \(key), \(Self.update)}
                """

        // When the file is read
        // Then it is refused, saying what to write instead
        #expect {
            try Scenario.parse(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func aPeripheralChoosesItsGenericAttributeCharacteristicsAndBonds() throws {
        // Given a peripheral serving the Database Hash only and bonding with its centrals
        let scenario = try Scenario.parse(Self.withKeys("genericAttribute: [databaseHash]", "bondsWithCentrals: true"))

        // When its spec is built
        let spec = try ScenarioBuiltIns.spec(for: scenario.world[0], at: 0)

        // Then it has them
        #expect(spec.genericAttribute == .databaseHash)
        #expect(spec.bondsWithCentrals)

        // And an unknown characteristic name is refused, listing the three
        #expect {
            try Scenario.parse(Self.withKeys("genericAttribute: [hash]"))
        } throws: { error in
            "\(error)".contains("serviceChanged, clientSupportedFeatures, databaseHash")
        }
    }
}
