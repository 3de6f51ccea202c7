import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTestSupport
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Pairing through `Device1.Pair` on the fake BlueZ: BlueZ's errors each map to a typed one, and a Pair BlueZ
/// never answers ends at its deadline.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZPairingTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    private func connected(_ fake: FakeBlueZ, pairingTimeout: Duration = .seconds(35)) async throws -> BlueZTransport {
        var configuration = fake.configuration()
        configuration.pairingTimeout = pairingTimeout
        let transport = try await BlueZTransport.open(configuration)
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        return transport
    }

    @Test(arguments: [
        ("AuthenticationFailed", AirlinkError.Code.pairingFailed),
        ("AuthenticationCanceled", .pairingFailed),
        ("AuthenticationRejected", .pairingFailed),
        ("AuthenticationTimeout", .timeout),
        ("ConnectionAttemptFailed", .linkLost),
        ("InProgress", .operationInProgress),
    ])
    func blueZsPairingErrorsAreTyped(name: String, code: AirlinkError.Code) async throws {
        // Given a connected thermostat whose next Pair BlueZ fails with `name`
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.failNext("Pair", error: "org.bluez.Error." + name, text: name)

        // When the app pairs
        let error = await caughtError {
            _ = try await transport.pair(thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
        }

        // Then the error has the typed code, and BlueZ's name as its cause
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.cause == .bluez(name: "org.bluez.Error." + name, message: name))
    }

    @Test func aPairBlueZNeverAnswersEndsAtItsDeadline() async throws {
        // Given a connected thermostat, pairing allowed 2 s, and a Pair BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake, pairingTimeout: .seconds(2))
        try await fake.hangNext("Pair")

        // When the app pairs
        let outcome = try await endedWithin(.seconds(6)) {
            _ = try await transport.pair(
                self.thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
        }

        // Then it fails with timeout at its deadline
        let (result, took) = try #require(outcome, "pair was still waiting after 6 s")
        #expect(code(result) == .timeout)
        #expect(took >= .seconds(2) && took < .seconds(4), "took \(took)")
    }

    @Test func theAdapterOffMidPairingFailsItAtOnce() async throws {
        // Given a connected thermostat, pairing allowed 30 s, and a Pair BlueZ has not answered yet
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake, pairingTimeout: .seconds(30))
        try await fake.hangNext("Pair")

        // When the adapter goes off while the app pairs
        let outcome = try await endedWithin(.seconds(10)) {
            _ = try await transport.pair(
                self.thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
        } after: {
            try await fake.waitForCall("Pair")
            try await fake.setPowered(false)
        }

        // Then the pairing fails at once with a typed error, not at its 30 s deadline
        let (result, took) = try #require(outcome, "pair was still waiting after 10 s")
        #expect([.adapterPoweredOff, .linkLost].contains(code(result)), "\(result)")
        #expect(took < .seconds(4), "took \(took)")
        try await fake.setPowered(true)
    }

    @Test(arguments: [6, 17])
    func aKeySizeOutsideSevenToSixteenIsRefused(size: Int) async throws {
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        let error = await caughtError {
            _ = try await transport.pair(
                thermostat, features: PairingFeatures(io: .noInputNoOutput, maximumKeySize: size), agent: .refusing)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test(
        arguments: [
            // (how the device pairs, what the app's user answers, the outcome: nil for paired)
            ("passkey", PairingAgent.entering(123_456), nil),
            ("passkey", PairingAgent.entering(654_321), "org.bluez.Error.AuthenticationFailed"),
            ("passkey", PairingAgent.refusing, "org.bluez.Error.AuthenticationCanceled"),
            ("passkey", PairingAgent.entering(1_000_000), "org.bluez.Error.AuthenticationRejected"),
            ("confirm", PairingAgent.attentive, nil),
            ("confirm", PairingAgent.refusing, "org.bluez.Error.AuthenticationRejected"),
            ("display", PairingAgent.attentive, nil),
            ("just-works", PairingAgent.refusing, nil),
        ] as [(String, PairingAgent, String?)])
    func bluetoothdAsksTheAppsAgent(method: String, agent: PairingAgent, expected: String?) async throws {
        // Given a connected thermostat that pairs by `method` with passkey 123456
        let fake = try await FakeBlueZ.fresh()
        let transport = try await connected(fake)
        try await fake.setPairing(FakeBlueZ.devicePath("C0:FF:EE:00:00:01"), method, passkey: 123_456)

        // When the app pairs, its user answering as `agent`
        let result = Recorder<PairingResult>()
        let error = await caughtError {
            result.append(
                try await transport.pair(
                    thermostat, features: PairingFeatures(io: .keyboardDisplay, mitm: true), agent: agent))
        }

        // Then bluetoothd asked the agent Airlink registered, and the answer decided the outcome; a pairing that
        // succeeded reports the method the agent's question gives away, and the level that method proves
        if let expected {
            #expect(error?.code == .pairingFailed, "\(String(describing: error))")
            if case .bluez(let name, _)? = error?.cause {
                #expect(name == expected)
            } else {
                Issue.record("\(String(describing: error))")
            }
        } else {
            #expect(error == nil, "\(String(describing: error))")
            let expected: [String: (PairingMethod, LinkSecurityLevel)] = [
                "passkey": (.passkeyEntry(.peripheralDisplays), .authenticated),
                "confirm": (.numericComparison, .authenticatedSecureConnections),
                "display": (.passkeyEntry(.centralDisplays), .authenticated),
                "just-works": (.justWorks, .encrypted),
            ]
            let paired = try #require(result.values.first)
            #expect(paired.method == expected[method]?.0)
            #expect(paired.level == expected[method]?.1)
        }
        let log = try await fake.callLog().compactMap { $0["method"] as? String }
        #expect(log.contains("RegisterAgent"))
        let asked = ["passkey": "RequestPasskey", "confirm": "RequestConfirmation", "display": "DisplayPasskey"]
        if let question = asked[method] {
            #expect(log.contains(question))
        } else {
            #expect(log.allSatisfy { !asked.values.contains($0) }, "\(log)")
        }
    }
}
