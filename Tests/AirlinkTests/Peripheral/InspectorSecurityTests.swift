import Airlink
import AirlinkCore
import AirlinkSimulation
import Synchronization
import Testing

/// An inspector's protected values: an observer over an unencrypted link is refused, pairs as the inspector's
/// security says, and reads; the inspector's transport reports the pairing; a transport without a Security
/// Manager refuses the inspector's security rather than ignore it.
@Suite struct InspectorSecurityTests {
    /// What an observer saw of the protected value `secret`: the refusal, the pairing, the value read after.
    struct Seen: Sendable {
        var refusal: ATTError?
        var result: PairingResult
        var value: InspectedValue
        var events: [PeripheralEvent]
    }

    /// An inspector publishing `secret` (UInt8 7) with `protection`, optionally its `security`; an observer
    /// connects, reads, pairs with `features` and reads again.
    static func observe(
        _ protection: InspectionOptions, security: PeripheralRoleSecurity?, features: PairingFeatures
    ) async throws -> Seen {
        let world = InspectorWorld()
        try world.inspector.inspect("secret", options: [.read, .write, protection], get: { UInt8(7) }, set: { _ in })
        try world.inspector.inspect("open", get: { UInt8(1) })
        if let security { try world.inspector.setSecurity(security) }
        let events = world.app.peripheralEvents()
        let observer = world.observer()
        var seen = try await world.sim.run { () async throws -> Seen in
            try await world.inspector.start()
            let inspector = try await world.connect(observer)
            var refusal: ATTError?
            do throws(AirlinkError) {
                _ = try await inspector.read("secret")
            } catch {
                refusal = error.attError
            }
            let result = try await inspector.connection.pair(features: features, agent: .attentive)
            let value = try await inspector.read("secret")
            await inspector.disconnect()
            await world.inspector.stop()
            return Seen(refusal: refusal, result: result, value: value, events: [])
        }
        for await event in events {
            if case .centralDisconnected = event { break }
            if case .centralConnected = event { continue }
            seen.events.append(event)
        }
        return seen
    }

    @Test func anEncryptedValueIsReadAfterJustWorks() async throws {
        // Given an inspector whose value needs an encrypted link, with the radio's default security
        // When an observer reads it, pairs and reads again
        let seen = try await Self.observe(
            .encryptionRequired, security: nil, features: PairingFeatures(io: .keyboardDisplay))

        // Then the first read is refused with Insufficient Encryption, pairing is Just Works, the value reads,
        // and the inspector's transport reported the request and the pairing
        #expect(seen.refusal == .insufficientEncryption)
        #expect(seen.result.method == .justWorks)
        #expect(seen.value == .unsigned(7, bits: 8))
        #expect(seen.events.map(\.kind) == ["pairingRequested just works", "paired"])
    }

    @Test func anAuthenticatedValueIsReadAfterThePasskeyTheInspectorShows() async throws {
        // Given an inspector whose value needs an authenticated key, showing passkeys on its display
        let shown = Mutex<[UInt32]>([])
        let security = PeripheralRoleSecurity(
            features: PairingFeatures(io: .displayOnly, mitm: true),
            agent: PairingAgent(
                enterPasskey: { _ in nil }, displayPasskey: { passkey in shown.withLock { $0.append(passkey) } },
                confirmNumber: { _ in false }))

        // When an observer with a keyboard reads it, pairs typing the passkey, and reads again
        let seen = try await Self.observe(
            .authenticationRequired, security: security, features: PairingFeatures(io: .keyboardOnly, mitm: true))

        // Then it was refused with Insufficient Authentication, paired by passkey entry, the inspector's agent
        // showed one passkey, and the value reads
        #expect(seen.refusal == .insufficientAuthentication)
        #expect(seen.result.method == .passkeyEntry(.peripheralDisplays))
        #expect(shown.withLock { $0.count } == 1)
        #expect(seen.value == .unsigned(7, bits: 8))
        #expect(seen.events.map(\.kind) == ["pairingRequested passkey entry (peripheral displays)", "paired"])
    }

    @Test func aTransportThatCannotPairRefusesTheInspectorsSecurity() async throws {
        // Given an inspector with security on a transport without a Security Manager
        let sim = Simulation(seed: 1, strict: true)
        let inspector = Inspector(name: "Plain", transport: PlainPeripheral(), environment: sim.environment)
        try inspector.inspect("secret", options: [.read, .encryptionRequired], get: { UInt8(1) })
        try inspector.setSecurity(PeripheralRoleSecurity())

        // When it starts
        let error = try await sim.run { () async -> AirlinkError? in
            do throws(AirlinkError) {
                try await inspector.start()
                return nil
            } catch {
                return error
            }
        }

        // Then it fails with operationNotSupported and does not run
        #expect(error?.code == .operationNotSupported)
        #expect(!inspector.isRunning)
    }

    @Test func protectionAloneIsNoOption() async throws {
        // Given an inspector, when a value is inspected with a protection but nothing a central may do
        let world = InspectorWorld()
        let error = #expect(throws: AirlinkError.self) {
            try world.inspector.inspect("secret", options: [.encryptionRequired], get: { UInt8(1) })
        }
        // Then it is refused naming the missing options
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("no options") == true)
    }
}

extension PeripheralEvent {
    /// The event's kind, with the method of a request: what the tests compare.
    fileprivate var kind: String {
        switch self {
        case .pairingRequested(_, let method): "pairingRequested \(method)"
        case .paired: "paired"
        case .pairingFailed: "pairingFailed"
        default: "\(self)"
        }
    }
}

/// A peripheral role without a Security Manager: it serves nothing, and keeps the protocol's default
/// `setSecurity`.
private final class PlainPeripheral: PeripheralTransport {
    let name = "plain"
    let peripheralAddress: DeviceID = "C0:00:00:00:00:01"
    func peripheralEvents() -> EventStream<PeripheralEvent> { Broadcaster<PeripheralEvent>().subscribe() }
    func publish(name: String, services: [Service]) async throws(AirlinkError) {}
    func unpublish() async {}
    func startAdvertising(_ advertising: Advertising) async throws(AirlinkError) {}
    func stopAdvertising() async {}
    func updateValue(_ bytes: [UInt8], of characteristic: BluetoothUUID, in service: BluetoothUUID)
        async throws(AirlinkError)
    {}
}
