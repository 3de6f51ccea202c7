import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// A scenario's peripheral declares the security its values need; the virtual server enforces it, and a
/// declaration the format does not know is refused at its line.
@Suite struct ScenarioPermissionsTests {
    private static func scenario(_ characteristic: String) -> String {
        """
        duration: 5s
        world:
          - name: Locked
            id: "C0:FF:EE:00:00:21"
            advertising: {services: ["FFF0"]}
            services:
              - uuid: "FFF0"
                characteristics:
        \(characteristic)
        client:
          - device: Locked
            read:
              - {service: "FFF0", characteristic: "FFF1", at: 1s, type: uint8}
        """
    }

    /// The errors the server answered read requests with, from the trace's ATT records.
    private static func readRefusals(_ records: [TraceRecord]) -> [ATTError] {
        records.compactMap { record in
            guard case .attPDU(_, _, .toCentral, .errorResponse(.readRequest, _, let error), _) = record.event
            else { return nil }
            return error
        }
    }

    @Test(arguments: [
        ("permissions: [readEncryptionRequired]", ATTError.insufficientEncryption),
        ("permissions: [read-authentication-required]", .insufficientAuthentication),
        ("permissions: [readAuthorizationRequired]", .insufficientAuthorization),
        ("minimumKeySize: 16", .insufficientEncryption),
    ])
    func aProtectedValueIsRefusedOverAnUnencryptedLink(_ declaration: String, _ expected: ATTError) async throws {
        // Given a characteristic that declares a security requirement
        let scenario = try Scenario.parse(
            Self.scenario(
                "          - {uuid: \"FFF1\", properties: [read], type: uint8, value: 7, \(declaration)}"))

        // When a client reads it over a link nothing encrypted
        let result = try await ScenarioRunner().run(scenario)

        // Then the server answers the read with the error the requirement earns
        let refusals = Self.readRefusals(result.trace.records)
        #expect(!refusals.isEmpty, "\(result.trace.records)")
        #expect(refusals.first == expected, "\(refusals)")
    }

    @Test func aValueWithoutRequirementsIsStillRead() async throws {
        // Given the same characteristic with no permissions declared
        let scenario = try Scenario.parse(
            Self.scenario("          - {uuid: \"FFF1\", properties: [read], type: uint8, value: 7}"))

        // When the client reads it, Then no error answers it
        let records = try await ScenarioRunner().run(scenario).trace.records
        #expect(Self.readRefusals(records).isEmpty, "\(records)")
    }

    @Test(arguments: [
        ("permissions: [readEncrypted]", "scenario:9:", "expected a permission"),
        ("permissions: [readable, sideways]", "scenario:9:", "found 'sideways'"),
        // The bad entry is named by its own index, not the next one's
        ("permissions: [readable, writable, readWhenFullMoon]", "scenario:9:", "permissions[2])"),
        ("minimumKeySize: 0", "scenario:9:", "from 7 to 16, found '0'"),
        ("minimumKeySize: 6", "scenario:9:", "from 7 to 16, found '6'"),
        ("minimumKeySize: 17", "scenario:9:", "from 7 to 16, found '17'"),
        ("minimumKeySize: -16", "scenario:9:", "from 7 to 16, found '-16'"),
        ("minimumKeySize: 16.5", "scenario:9:", "from 7 to 16, found '16.5'"),
        ("minimumKeySize: sixteen", "scenario:9:", "from 7 to 16, found 'sixteen'"),
        ("minimumKeySize: [16]", "scenario:9:", "found no number"),
        (
            "descriptors: [{uuid: \"2901\", type: string, value: x, permissions: [writeEncryption]}]",
            "scenario:9:", "found 'writeEncryption'"
        ),
    ])
    func aBadPermissionDeclarationIsRefusedAtItsLine(_ declaration: String, _ location: String, _ expected: String) {
        // Given a characteristic whose permissions name something unknown or a key size outside 7–16
        let yaml = Self.scenario(
            "          - {uuid: \"FFF1\", properties: [read], type: uint8, value: 7, \(declaration)}")

        // When it is parsed, Then the error names the line and what was expected
        expectRefusal(yaml, at: location, saying: expected)
    }
}
