import AirlinkCore
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

    private static func lines(_ security: String, _ pair: String) async throws -> String {
        let scenario = try Scenario.parse(Self.scenario(security: security, pair: pair))
        return try await ScenarioRunner().run(scenario).trace.lines.joined(separator: "\n")
    }

    @Test func theRightPasskeyOpensTheValue() async throws {
        let lines = try await Self.lines(
            "{io: display-only, mitm: true, passkey: 123456}",
            "{at: 2s, io: keyboard-only, mitm: true, passkey: 123456}")
        #expect(
            lines.contains(
                "client pair C0:FF:EE:00:00:41 ok: level 4 (authenticated Secure Connections) keySize=16 bonded"),
            "\(lines)")
        #expect(lines.contains("client read FFF1 = 42"), "\(lines)")
    }

    @Test func aWrongPasskeyFailsAndTheValueStaysRefused() async throws {
        let lines = try await Self.lines(
            "{io: display-only, mitm: true, passkey: 123456}",
            "{at: 2s, io: keyboard-only, mitm: true, passkey: 999999}")
        #expect(
            lines.contains("client pair C0:FF:EE:00:00:41 failed: pairingFailed Confirm Value Failed (0x04)"),
            "\(lines)")
        #expect(lines.contains("client read FFF1 failed: attribute"), "\(lines)")
    }

    @Test func aPeripheralThatRefusesSaysWhy() async throws {
        let lines = try await Self.lines("{refuse: pairing-not-supported}", "{at: 2s}")
        #expect(lines.contains("failed: pairingFailed Pairing Not Supported (0x05)"), "\(lines)")
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
