import AirlinkCore
import AirlinkSimulation
import Testing

/// The peripheral's user types the passkey: when it is not the one the central's user shows or types, the
/// confirm check fails and the peripheral ends pairing with Confirm Value Failed (Core Spec Vol 3, Part H,
/// 2.3.5.3), whether the user is a simulated peripheral's or an app's agent in the peripheral role.
@Suite struct PeripheralWrongPasskeyTests {
    /// How passkey entry splits the users' parts: the central displays and the peripheral types, or both type.
    enum Entry: String, CaseIterable, CustomTestStringConvertible {
        case centralDisplays
        case bothEnter

        var testDescription: String { rawValue }
        /// The central's IO capabilities that make the roles so, against a keyboard peripheral.
        var centralFeatures: PairingFeatures {
            PairingFeatures(io: self == .centralDisplays ? .displayOnly : .keyboardOnly, mitm: true)
        }
        /// The method the roles give.
        var method: PairingMethod { .passkeyEntry(self == .centralDisplays ? .centralDisplays : .bothEnter) }
    }

    /// The passkey the central's user types when both enter; a central that displays shows a drawn one.
    static let centralTypes: UInt32 = 111_111

    /// Pairs the radio's central with the vault of ``RadioPairingTests`` whose keyboard user types `typed` (`nil`:
    /// the right passkey); returns the pairing's outcome and the trace's pairing steps.
    static func pair(_ entry: Entry, peripheralTypes typed: UInt32?) async throws
        -> (Result<PairingResult, AirlinkError>, [PairingStep])
    {
        let user: PeripheralUser = typed.map { .enters($0, after: .seconds(1)) } ?? .attentive(after: .seconds(1))
        let security = PeripheralSecurity(features: PairingFeatures(io: .keyboardOnly, mitm: true), user: user)
        let (result, lines, _) = try await RadioPairingTests.run(security) { radio, _, _ in
            await outcome { () throws(AirlinkError) in
                try await radio.pair(
                    RadioPairingTests.id, features: entry.centralFeatures, agent: .entering(Self.centralTypes))
            }
        }
        return (result, lines.map(\.step))
    }

    @Test(arguments: Entry.allCases)
    func aWrongPasskeyTypedOnTheSimulatedPeripheralFailsTheConfirmCheck(_ entry: Entry) async throws {
        // Given a keyboard peripheral whose user types 222222, and one whose user types the right passkey
        // When the central pairs by passkey entry with each
        let (wrong, lines) = try await Self.pair(entry, peripheralTypes: 222_222)
        let (right, _) = try await Self.pair(entry, peripheralTypes: entry == .bothEnter ? Self.centralTypes : nil)

        // Then the wrong passkey fails with Confirm Value Failed, sent by the peripheral after the confirm and
        // random values crossed; the right one pairs by the same method
        #expect(wrong.failure?.code == .pairingFailed)
        #expect(wrong.failure?.pairingFailureReason == .confirmValueFailed)
        #expect(lines.contains(.userEnters(.peripheral, 222_222)), "\(lines)")
        #expect(lines.contains(.failed(.confirmValueFailed, byCentral: false)), "\(lines)")
        #expect(try right.get().method == entry.method)
    }

    @Test(arguments: Entry.allCases)
    func aWrongPasskeyTypedByTheAppsAgentFailsTheConfirmCheck(_ entry: Entry) async throws {
        // Given an app in the peripheral role with a keyboard, whose agent types 222222 whatever it is shown
        let security = PeripheralRoleSecurity(
            features: PairingFeatures(io: .keyboardOnly, mitm: true),
            agent: PairingAgent(enterPasskey: { _ in 222_222 }, confirmNumber: { _ in true }))

        // When a central pairs with it by passkey entry, its user typing 111111 if it types
        let outcome = try await PeripheralRoleSecurityTests.run(
            .readAuthenticationRequired, security: security, features: entry.centralFeatures,
            agent: .entering(Self.centralTypes))

        // Then pairing fails with Confirm Value Failed from the app's side, the value stays refused, and the app
        // heard the request and that failure
        #expect(outcome.pairing.failure?.pairingFailureReason == .confirmValueFailed)
        #expect(outcome.value == nil)
        let central: DeviceID = "5A:1A:00:00:00:02"
        #expect(
            outcome.events == [
                .centralConnected(central), .pairingRequested(central, method: entry.method),
                .pairingFailed(central, reason: .confirmValueFailed),
            ])
    }
}
