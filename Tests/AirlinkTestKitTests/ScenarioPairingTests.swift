import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// A scenario's peripheral declares how it answers pairing and a client pairs with `pair:`; what the format
/// does not know is refused at its line.
@Suite struct ScenarioPairingTests {
    private static func scenario(security: String, pair: String) -> String {
        """
        duration: 6s
        world:
          - name: Vault
            id: "C0:FF:EE:00:00:41"
            advertising: {services: ["FFF0"]}
            security: \(security)
            services:
              - uuid: "FFF0"
                characteristics:
                  - {uuid: "FFF1", properties: [read], type: uint8, value: 42,
                 permissions: [readAuthenticationRequired]}
        client:
          - device: Vault
            read:
              - {service: "FFF0", characteristic: "FFF1", at: 4s, type: uint8}
            pair: \(pair)
        """
    }

    /// What the scenario's client did, from the trace's records.
    private static func client(_ security: String, _ pair: String) async throws -> [ClientTraceEvent] {
        let scenario = try Scenario.parse(Self.scenario(security: security, pair: pair))
        return try await ScenarioRunner().run(scenario).trace.records.compactMap { record in
            guard case .client(let event) = record.event else { return nil }
            return event
        }
    }

    static let vault: DeviceID = "C0:FF:EE:00:00:41"

    @Test func theRightPasskeyOpensTheValue() async throws {
        let client = try await Self.client(
            "{io: display-only, mitm: true, passkey: 123456}",
            "{at: 2s, io: keyboard-only, mitm: true, passkey: 123456}")
        #expect(
            client.contains { event in
                guard case .paired(Self.vault, let result) = event else { return false }
                return result.level == .authenticatedSecureConnections && result.keySize == 16 && result.bonded
            }, "\(client)")
        #expect(client.contains(.read(target: "FFF1", value: "42")), "\(client)")
    }

    @Test func aWrongPasskeyFailsAndTheValueStaysRefused() async throws {
        let client = try await Self.client(
            "{io: display-only, mitm: true, passkey: 123456}",
            "{at: 2s, io: keyboard-only, mitm: true, passkey: 999999}")
        #expect(
            client.contains(.pairFailed(Self.vault, .pairingFailed, detail: "Confirm Value Failed (0x04)")), "\(client)"
        )
        #expect(client.contains(.failed(.read, target: "FFF1", .attribute)), "\(client)")
    }

    @Test func aPeripheralThatRefusesSaysWhy() async throws {
        let client = try await Self.client("{refuse: pairing-not-supported}", "{at: 2s}")
        #expect(
            client.contains(.pairFailed(Self.vault, .pairingFailed, detail: "Pairing Not Supported (0x05)")),
            "\(client)")
    }

    @Test(arguments: [
        ("{io: telepathy}", "{at: 2s}", "scenario:6:", "expected an IO capability"),
        ("{maximumKeySize: 17}", "{at: 2s}", "scenario:6:", "from 7 to 16"),
        ("{passkey: 1000000}", "{at: 2s}", "scenario:6:", "a six-digit passkey"),
        ("{refuse: because}", "{at: 2s}", "scenario:6:", "expected a Pairing Failed reason"),
        ("{}", "{io: keyboard}", "scenario:16:", "expected an IO capability"),
    ])
    func aBadSecurityDeclarationIsRefusedAtItsLine(
        _ security: String, _ pair: String, _ location: String, _ expected: String
    ) {
        expectRefusal(Self.scenario(security: security, pair: pair), at: location, saying: expected)
    }
}
