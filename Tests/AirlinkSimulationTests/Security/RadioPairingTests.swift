import AirlinkCore
import AirlinkSimulation
import Testing

/// Pairing on the virtual radio: what each side decides and learns, the link's security, bonds on both sides,
/// failures with the specification's reasons, and SMP's timeout in virtual time.
@Suite struct RadioPairingTests {
    static let id: DeviceID = "C0:FF:EE:00:00:41"
    static let service = BluetoothUUID(0xFFF0)
    static let locked = BluetoothUUID(0xFFF1)

    /// A peripheral whose value needs an authenticated link, with `security`.
    static func vault(_ security: PeripheralSecurity) -> PeripheralSpec {
        var spec = PeripheralSpec(name: "Vault", id: id) {
            Advertising(every: .milliseconds(100)) { LocalName("Vault") }
            Service(service) {
                Characteristic(
                    locked, properties: .read, permissions: [.readable, .readAuthenticationRequired],
                    value: UInt8(42))
            }
        }
        spec.security = security
        return spec
    }

    static let keyboard = PeripheralSecurity(
        features: PairingFeatures(io: .displayOnly, mitm: true), passkey: 123_456)

    /// Runs `body` with the radio connected to the vault, and returns its result and the trace's pairing steps.
    static func run<Success: Sendable>(
        _ security: PeripheralSecurity = keyboard,
        _ body: @escaping @Sendable (VirtualRadio, ATTHandle, SimulatedPeripheral) async throws -> Success
    ) async throws -> (Success, [SMPNote], Simulation) {
        let sim = Simulation(seed: 7, strict: true)
        let peripheral = try sim.add(vault(security))
        let radio = sim.radio
        let result = try await sim.run { () -> Success in
            _ = try await radio.connect(id, timeout: .seconds(5))
            let handle = try await valueHandle(radio)
            return try await body(radio, handle, peripheral)
        }
        return (result, sim.trace.records.pairingSteps, sim)
    }

    static func valueHandle(_ radio: VirtualRadio) async throws -> ATTHandle {
        let services = try await radio.discoverServices(id, uuids: [service])
        let found = try await radio.discoverCharacteristics(id, of: services[0], uuids: [locked])
        return found[0].valueHandle
    }

    @Test func aProtectedValueIsRefusedThenReadOncePaired() async throws {
        // Given a value that needs an authenticated link, on a fresh link
        let ((refused, result, value), lines, _) = try await Self.run { radio, handle, _ in
            // When the central reads it, pairs by typing the passkey the peripheral shows, and reads again
            let refused = await outcome { () throws(AirlinkError) in try await radio.read(Self.id, handle: handle) }
            let result = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            let value = try await radio.read(Self.id, handle: handle)
            return (refused, result, value)
        }
        // Then the first read is refused with Insufficient Authentication, pairing uses passkey entry and yields
        // an authenticated Secure Connections key, and the second read returns the value
        #expect(refused.failure?.attError == .insufficientAuthentication)
        #expect(result.method == .passkeyEntry(.peripheralDisplays))
        #expect(
            result
                == PairingResult(
                    method: result.method, level: .authenticatedSecureConnections, keySize: 16, bonded: true))
        #expect(value == [42])
        #expect(
            lines.contains { $0.device == Self.id && $0.step == .displaysPasskey(.peripheral, 123_456) }, "\(lines)")
        #expect(lines.contains { $0.device == Self.id && $0.step == .bonded })
    }

    @Test func aWrongPasskeyFailsTheConfirmCheck() async throws {
        let (error, _, _) = try await Self.run { radio, _, _ in
            await outcome { () throws(AirlinkError) in
                try await radio.pair(
                    Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true), agent: .entering(654_321))
            }.failure
        }
        #expect(error?.code == .pairingFailed)
        #expect(error?.pairingFailureReason == .confirmValueFailed)
    }

    @Test func aBondSurvivesAReconnectionAndEncryptsWithoutPairing() async throws {
        let ((second, value, bonded), lines, _) = try await Self.run { radio, handle, peripheral in
            // Given a bonded pairing, then a new connection
            _ = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            await radio.disconnect(Self.id)
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            // When the central encrypts again
            let second = try await radio.pair(Self.id, agent: .refusing)
            let value = try await radio.read(Self.id, handle: handle)
            return (second, value, peripheral.bondedCentrals)
        }
        // Then the bond serves without a method or user, at the level it gave
        #expect(second == PairingResult(method: nil, level: .authenticatedSecureConnections, keySize: 16, bonded: true))
        #expect(value == [42])
        #expect(bonded.count == 1)
        #expect(lines.contains { if case .reencrypted = $0.step { true } else { false } }, "\(lines)")
    }

    @Test func aPeripheralThatLostTheBondAnswersPINOrKeyMissing() async throws {
        let ((lost, again), _, _) = try await Self.run { radio, _, peripheral in
            // Given a bond the peripheral then forgets
            _ = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            await radio.disconnect(Self.id)
            peripheral.forgetBonds()
            _ = try await radio.connect(Self.id, timeout: .seconds(5))
            // When the central encrypts with its bond, then forgets it and pairs again
            let lost = await outcome { () throws(AirlinkError) in try await radio.pair(Self.id) }
            radio.forgetBond(Self.id)
            let again = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            return (lost, again)
        }
        // Then encryption fails with the bond lost, and a fresh pairing succeeds
        #expect(lost.failure?.code == .bondLost)
        #expect(lost.failure?.cause == .other("HCI PIN or Key Missing (0x06)"))
        #expect(again.method == .passkeyEntry(.peripheralDisplays))
    }

    @Test func aCentralThatForgotTheBondPairsAfreshAndThePeripheralReplacesIt() async throws {
        let ((result, bonded), _, _) = try await Self.run { radio, _, peripheral in
            _ = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            radio.forgetBond(Self.id)
            let result = try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
            return (result, peripheral.bondedCentrals)
        }
        #expect(result.method != nil)
        #expect(bonded.count == 1)
    }

    @Test(arguments: [
        (PairingFailureReason.pairingNotSupported, "< pairing failed: Pairing Not Supported (0x05)"),
        (PairingFailureReason.repeatedAttempts, "< pairing failed: Repeated Attempts (0x09)"),
    ])
    func aPeripheralRefusingPairingSaysWhy(_ reason: PairingFailureReason, _ line: String) async throws {
        let (error, lines, _) = try await Self.run(PeripheralSecurity(refusal: reason)) { radio, _, _ in
            await outcome { () throws(AirlinkError) in try await radio.pair(Self.id) }.failure
        }
        #expect(error?.code == .pairingFailed)
        #expect(error?.pairingFailureReason == reason)
        #expect(lines.contains { $0.step == .failed(reason, byCentral: false) && $0.step.text == line }, "\(lines)")
    }

    @Test func mitmOnADeviceWithoutIOFailsWithAuthenticationRequirements() async throws {
        // Given a peripheral without display or keyboard, and a central that requires MITM protection
        let (error, _, _) = try await Self.run(PeripheralSecurity()) { radio, _, _ in
            await outcome { () throws(AirlinkError) in
                try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardDisplay, mitm: true))
            }.failure
        }
        // Then the central ends pairing: Just Works cannot give what it requires
        #expect(error?.pairingFailureReason == .authenticationRequirements)
    }

    @Test func justWorksGivesAnUnauthenticatedKeyThatTheValueStillRefuses() async throws {
        let ((result, refused), _, _) = try await Self.run(PeripheralSecurity()) { radio, handle, _ in
            let result = try await radio.pair(Self.id)
            let refused = await outcome { () throws(AirlinkError) in try await radio.read(Self.id, handle: handle) }
            return (result, refused)
        }
        #expect(result == PairingResult(method: .justWorks, level: .encrypted, keySize: 16, bonded: true))
        #expect(refused.failure?.attError == .insufficientAuthentication)
    }

    @Test func legacyPairingWithAShortKeyIsAuthenticatedButNotSecureConnections() async throws {
        let peripheral = PeripheralSecurity(
            features: PairingFeatures(io: .displayOnly, mitm: true, secureConnections: false, maximumKeySize: 7),
            passkey: 1)
        let (result, lines, _) = try await Self.run(peripheral) { radio, _, _ in
            try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, mitm: true))
        }
        #expect(
            result
                == PairingResult(
                    method: .passkeyEntry(.peripheralDisplays), level: .authenticated, keySize: 7, bonded: true))
        #expect(lines.contains { $0.step == .displaysPasskey(.peripheral, 1) && $0.step.text.hasSuffix("000001") })
    }

    @Test func aPeripheralUserWhoNeverAnswersEndsInSMPsTimeoutAfter30Seconds() async throws {
        // Given a keyboard peripheral whose user is away, and a central that displays the passkey
        let security = PeripheralSecurity(features: PairingFeatures(io: .keyboardOnly, mitm: true), user: .absent)
        let ((first, second), lines, _) = try await Self.run(security) { radio, _, _ in
            // When the central pairs, then tries again on the same link
            let first = await outcome { () throws(AirlinkError) in
                try await radio.pair(Self.id, features: PairingFeatures(io: .displayOnly, mitm: true))
            }
            let second = await outcome { () throws(AirlinkError) in try await radio.pair(Self.id) }
            return (first.failure, second.failure)
        }
        // Then pairing times out, and the link takes no further pairing
        #expect(first?.code == .timeout)
        #expect(second?.code == .timeout)
        let timedOut = try #require(lines.first { $0.step == .timedOut })
        let request = try #require(lines.first { if case .request = $0.step { true } else { false } })
        #expect(timedOut.time.offset - request.time.offset == .seconds(30))
    }

    @Test func aNumericComparisonTheCentralsUserRejectsFails() async throws {
        let security = PeripheralSecurity(features: PairingFeatures(io: .displayYesNo, mitm: true))
        let (error, _, _) = try await Self.run(security) { radio, _, _ in
            await outcome { () throws(AirlinkError) in
                try await radio.pair(
                    Self.id, features: PairingFeatures(io: .displayYesNo, mitm: true), agent: .refusing)
            }.failure
        }
        #expect(error?.pairingFailureReason == .numericComparisonFailed)
    }

    @Test func aLinkLostDuringPairingFailsIt() async throws {
        let security = PeripheralSecurity(features: PairingFeatures(io: .keyboardOnly, mitm: true), user: .absent)
        let (error, _, _) = try await Self.run(security) { radio, _, peripheral in
            peripheral.schedule(.dropLink(.remoteUserTerminated), after: .seconds(5))
            return await outcome { () throws(AirlinkError) in
                try await radio.pair(Self.id, features: PairingFeatures(io: .displayOnly, mitm: true))
            }.failure
        }
        #expect(error?.code == .linkLost)
    }

    @Test(arguments: [true, false])
    func aBondedCentralIsRememberedForGATTCachingAndAnUnpairedOneIsNot(_ pairs: Bool) async throws {
        // Given a peripheral that does not treat every central as bonded
        let (remembered, lines, _) = try await Self.run(PeripheralSecurity()) { radio, _, peripheral in
            // When the central pairs (or not), then disconnects
            if pairs { _ = try await radio.pair(Self.id) }
            await radio.disconnect(Self.id)
            return peripheral.cachingState(ofCentral: radio.address) != nil
        }
        // Then only a bonded central's caching state outlives the link
        #expect(remembered == pairs)
        // And Just Works with Secure Connections takes the request, five exchanges and the key distribution, a
        // connection interval (30 ms) each
        if pairs { #expect(try Self.duration(lines, until: .bonded) == .milliseconds(210)) }
    }

    @Test func aKeyboardPeripheralsUserTakesTheirTimeBeforeEncryption() async throws {
        // Given a keyboard peripheral whose user types the passkey the central shows after 3 s
        let security = PeripheralSecurity(
            features: PairingFeatures(io: .keyboardOnly, mitm: true), user: .attentive(after: .seconds(3)))
        let (result, lines, _) = try await Self.run(security) { radio, _, _ in
            try await radio.pair(Self.id, features: PairingFeatures(io: .displayOnly, mitm: true))
        }
        // Then the central displays, the peripheral's user types, and pairing lasts the exchanges plus 3 s
        #expect(result.method == .passkeyEntry(.centralDisplays))
        #expect(lines.contains { if case .userEnters(.peripheral, _) = $0.step { true } else { false } })
        #expect(try Self.duration(lines, until: .bonded) == .seconds(3) + .milliseconds(210))
    }

    @Test func aKeySizeOutside7To16IsRefusedOnBothSides() async throws {
        // Given a central offering 6-byte keys, Then its pair call is refused before anything is sent
        let (error, lines, _) = try await Self.run { radio, _, _ in
            await outcome { () throws(AirlinkError) in
                try await radio.pair(Self.id, features: PairingFeatures(io: .keyboardOnly, maximumKeySize: 6))
            }.failure
        }
        #expect(error?.code == .invalidArgument)
        #expect(lines.isEmpty)
        // And a peripheral declaring 17-byte keys or a seven-digit passkey is refused when it is added
        for security in [
            PeripheralSecurity(features: PairingFeatures(io: .displayOnly, maximumKeySize: 17)),
            PeripheralSecurity(features: PairingFeatures(io: .displayOnly), passkey: 1_000_000),
        ] {
            #expect(throws: AirlinkError.self) { try Simulation(seed: 1).add(Self.vault(security)) }
        }
    }

    /// The virtual time from the pairing request to the first `step`.
    static func duration(_ lines: [SMPNote], until step: PairingStep) throws -> Duration {
        let request = try #require(lines.first { if case .request = $0.step { true } else { false } })
        let end = try #require(lines.first { $0.step == step })
        return end.time.offset - request.time.offset
    }

    /// One pairing step of the trace: its virtual time, the device and the step.
    typealias SMPNote = (time: AirlinkInstant, device: DeviceID, step: PairingStep)
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
