import AirlinkCore
import AirlinkSimulation
import AirlinkTestSupport
import Synchronization
import Testing

/// The app's peripheral role on the virtual radio protects values: a central reading over an unencrypted link
/// is refused, pairs with the app (whose security and agent answer), and reads; the app hears the pairing as
/// events, in order.
@Suite struct PeripheralRoleSecurityTests {
    static let service = BluetoothUUID(0xFFF0)
    static let secret = BluetoothUUID(0xFFF1)
    static let note = BluetoothUUID(0x2901)

    /// The app's database: a value that needs `permission` to read, with a User Description that needs
    /// encryption.
    static func database(_ permission: AttributePermissions) -> [Service] {
        [
            Service(service) {
                Characteristic(secret, properties: .read, permissions: [.readable, permission], value: UInt8(42))
                    .descriptor(note, value: "secret", permissions: [.readable, .readEncryptionRequired])
            }
        ]
    }

    /// What a central saw of the app's protected value and descriptor, before and after pairing.
    struct Outcome: Sendable {
        var refused: ATTError?
        var descriptorRefused: ATTError?
        var pairing: Result<PairingResult, AirlinkError>
        var value: [UInt8]?
        var descriptor: [UInt8]?
        var events: [PeripheralEvent]
        var smp: [(device: DeviceID, step: PairingStep)]
    }

    /// Publishes the database with `security` on one radio, and has a second radio of the simulation connect,
    /// read the value and its descriptor, pair with `features` and `agent`, and read both again.
    static func run(
        _ permission: AttributePermissions, security: PeripheralRoleSecurity?, features: PairingFeatures,
        agent: PairingAgent = .attentive
    ) async throws -> Outcome {
        let sim = Simulation(seed: 3, strict: true)
        let app = sim.radio
        let central = VirtualRadio(simulation: sim)
        let events = app.peripheralEvents()
        let outcome = try await sim.run { () async throws -> Outcome in
            if let security { try await app.setSecurity(security) }
            try await app.publish(name: "App", services: database(permission))
            try await app.startAdvertising(Advertising(every: .milliseconds(100)) { LocalName("App") })
            let id = app.address
            _ = try await central.connect(id, timeout: .seconds(5))
            let services = try await central.discoverServices(id, uuids: [service])
            let characteristic = try await central.discoverCharacteristics(id, of: services[0], uuids: [secret])[0]
            let descriptor = try await central.discoverDescriptors(id, of: characteristic, in: services[0])
                .first { $0.uuid == note }!
            let handle = characteristic.valueHandle
            func read(_ handle: ATTHandle) async -> Result<[UInt8], AirlinkError> {
                do throws(AirlinkError) { return .success(try await central.read(id, handle: handle)) } catch {
                    return .failure(error)
                }
            }
            let refused = await read(handle)
            let descriptorRefused = await read(descriptor.handle)
            let pairing: Result<PairingResult, AirlinkError>
            do throws(AirlinkError) {
                pairing = .success(try await central.pair(id, features: features, agent: agent))
            } catch {
                pairing = .failure(error)
            }
            let value = try? await read(handle).get()
            let described = try? await read(descriptor.handle).get()
            await central.disconnect(id)
            await app.unpublish()
            return Outcome(
                refused: refused.failure?.attError, descriptorRefused: descriptorRefused.failure?.attError,
                pairing: pairing, value: value, descriptor: described, events: [], smp: [])
        }
        var result = outcome
        var iterator = events.makeAsyncIterator()
        while let event = await iterator.next() {
            if case .centralDisconnected = event { break }
            result.events.append(event)
        }
        result.smp = sim.trace.records.pairingSteps.map { ($0.device, $0.step) }
        return result
    }

    @Test func anEncryptedValueIsRefusedThenReadAfterJustWorks() async throws {
        // Given an app serving a value that needs an encrypted link, with the role's default security
        // When a central reads it, pairs (no MITM) and reads again
        let outcome = try await Self.run(
            .readEncryptionRequired, security: nil, features: PairingFeatures(io: .keyboardDisplay))

        // Then the value and its descriptor are refused with Insufficient Encryption, pairing is Just Works at
        // level 2, and both read afterwards
        #expect(outcome.refused == .insufficientEncryption)
        #expect(outcome.descriptorRefused == .insufficientEncryption)
        let result = try outcome.pairing.get()
        #expect(result == PairingResult(method: .justWorks, level: .encrypted, keySize: 16, bonded: true))
        #expect(outcome.value == [42])
        #expect(outcome.descriptor == Array("secret".utf8))
        // And the app heard the request with its method, then the result, between the link's events
        let central: DeviceID = "5A:1A:00:00:00:02"
        #expect(
            outcome.events == [
                .centralConnected(central), .pairingRequested(central, method: .justWorks), .paired(central, result),
            ])
    }

    @Test func anAuthenticatedValueNeedsThePasskeyTheAppDisplays() async throws {
        // Given an app with a display that requires MITM protection, whose agent shows the passkey it is given
        let shown = Mutex<[UInt32]>([])
        let agent = PairingAgent(
            enterPasskey: { _ in nil }, displayPasskey: { passkey in shown.withLock { $0.append(passkey) } },
            confirmNumber: { _ in false })
        let security = PeripheralRoleSecurity(features: PairingFeatures(io: .displayOnly, mitm: true), agent: agent)

        // When a central with a keyboard reads its authenticated value, pairs typing what the app shows, reads
        let outcome = try await Self.run(
            .readAuthenticationRequired, security: security,
            features: PairingFeatures(io: .keyboardOnly, mitm: true))

        // Then the read is refused with Insufficient Authentication, pairing is passkey entry at level 4, the
        // app's agent displayed the passkey the trace shows, and the value reads
        #expect(outcome.refused == .insufficientAuthentication)
        let result = try outcome.pairing.get()
        #expect(result.method == .passkeyEntry(.peripheralDisplays))
        #expect(result.level == .authenticatedSecureConnections)
        #expect(outcome.value == [42])
        let passkeys = shown.withLock { $0 }
        #expect(passkeys.count == 1)
        let displayed = try #require(passkeys.first)
        #expect(outcome.smp.contains { $0.step == .displaysPasskey(.peripheral, displayed) }, "\(outcome.smp)")
        #expect(outcome.smp.contains { $0.step.text.hasPrefix("< pairing response io=display-only bonding mitm sc") })
        #expect(outcome.events.dropFirst().first == .pairingRequested("5A:1A:00:00:00:02", method: result.method!))
    }

    @Test func anAppRejectingTheComparedNumberFailsThePairing() async throws {
        // Given an app with a yes/no display whose user says the compared numbers differ
        let security = PeripheralRoleSecurity(
            features: PairingFeatures(io: .displayYesNo, mitm: true), agent: .refusing)

        // When a central with a yes/no display pairs (Numeric Comparison)
        let outcome = try await Self.run(
            .readAuthenticationRequired, security: security,
            features: PairingFeatures(io: .displayYesNo, mitm: true))

        // Then pairing fails with Numeric Comparison Failed from the app, the value stays refused, and the app
        // heard the request and the failure
        #expect(outcome.pairing.failure?.pairingFailureReason == .numericComparisonFailed)
        #expect(outcome.value == nil)
        let central: DeviceID = "5A:1A:00:00:00:02"
        #expect(
            outcome.events == [
                .centralConnected(central), .pairingRequested(central, method: .numericComparison),
                .pairingFailed(central, reason: .numericComparisonFailed),
            ])
    }

    @Test func theRoleSendsTheSecurityRequestItDeclares() async throws {
        // Given an app whose role asks every central to pair, bonding with MITM protection
        let security = PeripheralRoleSecurity(request: SecurityRequest(mitm: true))

        // When a central connects (and pairs)
        let outcome = try await Self.run(
            .readEncryptionRequired, security: security, features: PairingFeatures(io: .keyboardDisplay))

        // Then the trace shows the role's Security Request one interval after the link came up
        #expect(
            outcome.smp.contains {
                $0.device == "5A:1A:00:00:00:01" && $0.step == .securityRequest(SecurityRequest(mitm: true))
                    && $0.step.text == "< SMP_SECURITY_REQUEST bonding mitm sc"
            }, "\(outcome.smp)")
    }

    @Test func aKeySizeOutsideTheSpecificationIsRefused() async throws {
        // Given the radio's peripheral role
        let sim = Simulation(seed: 3, strict: true)
        // When the app asks for 6-byte keys
        let error = try await sim.run { () async -> AirlinkError? in
            do throws(AirlinkError) {
                try await sim.radio.setSecurity(
                    PeripheralRoleSecurity(features: PairingFeatures(io: .displayOnly, maximumKeySize: 6)))
                return nil
            } catch { return error }
        }
        // Then it is refused as an invalid argument naming the size
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("not 6") == true)
    }
}
