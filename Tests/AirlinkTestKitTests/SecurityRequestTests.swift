import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import AirlinkTestSupport
import Testing

/// A peripheral that sends a Security Request (SMP 0x0B) after the link's setup: the layers pair for it when the
/// policy pairs by itself, and otherwise only tell the app.
@Suite struct SecurityRequestTests {
    static let vault: DeviceID = "C0:FF:EE:00:00:41"

    /// The trace's records of a run of the vault requesting security with `request`, the app on `policy`.
    private static func records(request: String, policy: String) async throws -> [TraceRecord] {
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
        return try await ScenarioRunner().run(scenario).trace.records
    }

    @Test func aPolicyThatPairsByItselfPairsWhenThePeripheralAsks() async throws {
        // Given a peripheral that asks for an authenticated link, and an app whose policy pairs by itself
        // When the link comes up (the app never calls pair)
        let records = try await Self.records(
            request: "{mitm: true}", policy: "    pairWhenRefused: {io: keyboard-only, mitm: true, passkey: 123456}")
        // Then the request is traced and the layers pair with the policy's features
        let smp = records.pairingSteps
        #expect(
            smp.contains { $0.device == Self.vault && $0.step == .securityRequest(SecurityRequest(mitm: true)) },
            "\(smp)")
        let events = records.layerEvents
        #expect(
            events.contains { event in
                guard case .connection(Self.vault, .paired(let result)) = event else { return false }
                if case .passkeyEntry? = result.method { return true } else { return false }
            }, "\(events)")
        #expect(!events.contains { $0.name == "securityRequested" }, "\(events)")
    }

    @Test func withoutThePolicyTheAppIsToldAndNothingElseHappens() async throws {
        // Given the same peripheral and an app with the manual policy
        // When the link comes up
        let records = try await Self.records(request: "{bonding: false}", policy: "")
        // Then the app sees securityRequested with what was asked, and no pairing starts (no Pairing Request)
        let asked = SecurityRequest(bonding: false, mitm: false, secureConnections: true)
        #expect(records.layerEvents.contains(.connection(Self.vault, .securityRequested(asked))), "\(records)")
        let smp = records.pairingSteps
        #expect(!smp.contains { if case .request = $0.step { true } else { false } }, "\(smp)")
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
