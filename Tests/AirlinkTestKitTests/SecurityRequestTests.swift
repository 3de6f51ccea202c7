import AirlinkCore
import AirlinkTestKit
import Testing

/// A peripheral that sends a Security Request (SMP 0x0B) after the link's setup: the layers pair for it when the
/// policy pairs by itself, and otherwise only tell the app.
@Suite struct SecurityRequestTests {
    private static func lines(request: String, policy: String) async throws -> String {
        let text = """
            duration: 4s
            world:
              - name: Vault
                id: "C0:FF:EE:00:00:41"
                advertising: {services: ["FFF0"]}
                security: {io: display-only, mitm: true, passkey: 123456, request: \(request)}
                services:
                  - uuid: "FFF0"
                    characteristics:
                      - {uuid: "FFF1", properties: [read], type: uint8, value: 42}
            client:
              - device: Vault
            \(policy)
            """
        let scenario = try Scenario.parse(text)
        return try await ScenarioRunner().run(scenario).trace.lines.joined(separator: "\n")
    }

    @Test func aPolicyThatPairsByItselfPairsWhenThePeripheralAsks() async throws {
        // Given a peripheral that asks for an authenticated link, and an app whose policy pairs by itself
        // When the link comes up (the app never calls pair)
        let lines = try await Self.lines(
            request: "{mitm: true}", policy: "    pairWhenRefused: {io: keyboard-only, mitm: true, passkey: 123456}")
        // Then the request is traced and the layers pair with the policy's features
        #expect(lines.contains("smp C0:FF:EE:00:00:41 < SMP_SECURITY_REQUEST bonding mitm sc"), "\(lines)")
        #expect(lines.contains("event C0:FF:EE:00:00:41 paired passkey entry"), "\(lines)")
        #expect(!lines.contains("securityRequested"), "\(lines)")
    }

    @Test func withoutThePolicyTheAppIsToldAndNothingElseHappens() async throws {
        // Given the same peripheral and an app with the manual policy
        // When the link comes up
        let lines = try await Self.lines(request: "{bonding: false}", policy: "")
        // Then the app sees securityRequested with what was asked, and no pairing starts
        #expect(lines.contains("event C0:FF:EE:00:00:41 securityRequested sc"), "\(lines)")
        #expect(!lines.contains("pairing request"), "\(lines)")
    }

    @Test func aBadRequestIsRefusedAtItsLine() {
        // Given a request whose field is not a boolean, and one that is not a mapping
        // When the scenario is parsed / Then it is refused at the security line
        let scenario = { (request: String) in
            """
            duration: 4s
            world:
              - name: Vault
                id: "C0:FF:EE:00:00:41"
                security: {request: \(request)}
            """
        }
        expectRefusal(scenario("{mitm: maybe}"), at: "scenario:5:", saying: "expected true or false")
        expectRefusal(scenario("yes"), at: "scenario:5:", saying: "expected Mapping")
    }
}
