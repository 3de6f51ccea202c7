import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// Pairing through the layers on the virtual radio: `connection.pair()`, the policy that pairs and retries a
/// refused operation once, the events, the bond in the registry, and what goes wrong (a wrong passkey, a lost
/// bond, pairing twice at once, a link or adapter lost mid-pairing, passkeys out of range).
@Suite struct PairingLayersTests {
    static let vault: DeviceID = "C0:FF:EE:00:00:41"
    static let service = BluetoothUUID(0xFFF0)
    static let locked = BluetoothUUID(0xFFF1)
    /// The app's features: a keyboard, MITM protection wanted.
    static let keyboard = PairingFeatures(io: .keyboardOnly, mitm: true)

    /// A peripheral whose value needs an authenticated link; it shows `passkey` on its display.
    static func spec(
        passkey: UInt32 = 123_456, io: IOCapability = .displayOnly,
        user: PeripheralUser = .attentive(after: .seconds(1))
    ) -> PeripheralSpec {
        var spec = PeripheralSpec(name: "Vault", id: vault) {
            Advertising(every: .milliseconds(100)) { LocalName("Vault") }
            Service(service) {
                Characteristic(
                    locked, properties: .read, permissions: [.readable, .readAuthenticationRequired],
                    value: UInt8(42))
            }
        }
        spec.security = PeripheralSecurity(
            features: PairingFeatures(io: io, mitm: true), passkey: passkey, user: user)
        return spec
    }

    struct World {
        let sim: Simulation
        let manager: DeviceManager
        let connection: ConnectionManager
        let peripheral: SimulatedPeripheral
        let registry: DeviceRegistry
        let events: Recorder<ConnectionEvent>

        func read() async -> Result<[UInt8], AirlinkError> {
            await caught { () throws(AirlinkError) in
                try await connection.services.service(PairingLayersTests.service).read(PairingLayersTests.locked)
            }
        }
    }

    /// The Pairing Requests the radio saw, with the features each offered.
    static func pairingRequests(_ sim: Simulation) -> [PairingFeatures] {
        sim.trace.records.pairingSteps.compactMap { if case .request(let features) = $0.step { features } else { nil } }
    }

    static func world(_ spec: PeripheralSpec = spec(), policy: PairingPolicy = .manual) throws -> World {
        let sim = Simulation(seed: 7, strict: true)
        let peripheral = try sim.add(spec)
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        let manager = DeviceManager(transport: sim.radio, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: vault)
        connection.setPairingPolicy(policy)
        let events = Recorder.recording(connection.events(), in: sim.environment)
        return World(
            sim: sim, manager: manager, connection: connection, peripheral: peripheral, registry: registry,
            events: events)
    }

    @Test func withoutThePolicyARefusedReadSaysHowToPair() async throws {
        // Given the default (manual) policy
        let world = try Self.world()

        // When the app reads the protected value
        let result = try await world.sim.run { () -> Result<[UInt8], AirlinkError> in
            try await world.connection.connect(timeout: .seconds(3))
            return await world.read()
        }

        // Then it is refused with Insufficient Authentication, the message naming pair() and the policy
        let error = try #require(result.failure)
        #expect(error.attError == .insufficientAuthentication)
        #expect(error.message.contains("call pair() on the connection"), "\(error)")
        #expect(!world.events.values.map(\.name).contains("paired"))
    }

    @Test func thePolicyPairsAndRetriesARefusedReadOnce() async throws {
        // Given a policy that pairs when refused, with a user who types what the vault shows
        let world = try Self.world(policy: .pairWhenRefused(features: Self.keyboard, agent: .attentive))

        // When the app reads the protected value
        let value = try await world.sim.run { () -> [UInt8] in
            try await world.connection.connect(timeout: .seconds(3))
            let value = try await world.read().get()
            await world.manager.waitForRecords()
            return value
        }

        // Then the read succeeds after pairing by passkey entry, reported as `paired`, and the bond is recorded
        #expect(value == [42])
        #expect(world.events.values.map(\.name) == ["connected", "paired"])
        #expect(
            world.events.values.last?.description
                == "paired passkey entry (peripheral displays) level 4 (authenticated Secure Connections) "
                + "keySize=16 bonded")
        let bond = try #require(try await world.registry.record(for: Self.vault)?.bond)
        #expect(bond.level == .authenticatedSecureConnections && bond.keySize == 16)
        #expect(
            world.sim.trace.records.layerEvents.contains { event in
                guard case .connection(Self.vault, .paired(let result)) = event else { return false }
                if case .passkeyEntry? = result.method { return true } else { return false }
            })
    }

    @Test func aWrongPasskeyFailsTheReadWithTheReason() async throws {
        // Given a policy whose user types the wrong passkey
        let world = try Self.world(policy: .pairWhenRefused(features: Self.keyboard, agent: .entering(654_321)))

        // When the app reads the protected value
        let result = try await world.sim.run { () -> Result<[UInt8], AirlinkError> in
            try await world.connection.connect(timeout: .seconds(3))
            return await world.read()
        }

        // Then it fails with pairingFailed, Confirm Value Failed, reported as pairingFailed; the link stays up
        let error = try #require(result.failure)
        #expect(error.code == .pairingFailed)
        #expect(error.pairingFailureReason == .confirmValueFailed)
        #expect(world.events.values.map(\.name) == ["connected", "pairingFailed"])
        #expect(world.connection.state.isConnected)
    }

    @Test func aBondSurvivesAReconnectionWithoutPairingAgain() async throws {
        // Given an app that paired and bonded, then disconnected
        let world = try Self.world(policy: .pairWhenRefused(features: Self.keyboard, agent: .attentive))
        let (first, second, value) = try await world.sim.run { () -> (PairingResult, PairingResult, [UInt8]) in
            try await world.connection.connect(timeout: .seconds(3))
            let first = try await world.connection.pair()
            await world.connection.disconnect()

            // When it connects again and pairs
            try await world.connection.connect(timeout: .seconds(3))
            let second = try await world.connection.pair()
            return (first, second, try await world.read().get())
        }

        // Then the second time encrypts with the bond (no method), at the same level, and reads
        #expect(first.method == .passkeyEntry(.peripheralDisplays))
        #expect(second.method == nil && second.level == first.level)
        #expect(value == [42])
        #expect(world.events.values.map(\.description).contains { $0.hasPrefix("paired with the bond level 4") })
        let requests = Self.pairingRequests(world.sim)
        #expect(requests.count == 1, "\(requests)")
    }

    @Test func aLostBondIsReportedForgottenAndTheNextPairPairsAfresh() async throws {
        // Given an app that bonded with the vault, which then forgot the bond
        let world = try Self.world(policy: .pairWhenRefused(features: Self.keyboard, agent: .attentive))
        try await world.sim.run {
            try await world.connection.connect(timeout: .seconds(3))
            try await world.connection.pair()
            await world.connection.disconnect()
            await world.manager.waitForRecords()
        }
        #expect(try await world.registry.record(for: Self.vault)?.bond != nil)
        world.peripheral.forgetBonds()

        // When the app reconnects and reads the protected value (the policy encrypts with the bond)
        let (refused, kept, again) = try await world.sim.run {
            () -> (Result<[UInt8], AirlinkError>, BondRecord?, PairingResult) in
            try await world.connection.connect(timeout: .seconds(3))
            let refused = await world.read()
            await world.manager.waitForRecords()
            let kept = try await world.registry.record(for: Self.vault)?.bond
            return (refused, kept, try await world.connection.pair())
        }

        // Then the read fails with bondLost, reported once; the bond is gone from the radio and the registry;
        // the layers did not pair by themselves, and the app's next pair() paired afresh
        #expect(refused.failure?.code == .bondLost)
        #expect(world.events.values.map(\.name).filter { $0 == "bondLost" }.count == 1)
        #expect(kept == nil)
        #expect(!world.events.values.map(\.name).contains("pairingFailed"))
        #expect(again.method == .passkeyEntry(.peripheralDisplays))
        #expect(Self.pairingRequests(world.sim).count == 2)
    }

    @Test func pairingTwiceAtOnceSharesOnePairing() async throws {
        // Given a connected app
        let world = try Self.world()

        // When it calls pair() twice at once
        let (first, second) = try await world.sim.run { () -> (PairingResult, PairingResult) in
            try await world.connection.connect(timeout: .seconds(3))
            async let first = world.connection.pair(features: Self.keyboard, agent: .attentive)
            async let second = world.connection.pair(features: Self.keyboard, agent: .attentive)
            return try await (first, second)
        }

        // Then both get the one pairing's result, and the radio saw one Pairing Request
        #expect(first == second)
        #expect(Self.pairingRequests(world.sim).count == 1)
        #expect(world.events.values.map(\.name) == ["connected", "paired"])
    }

    /// Pairs while the vault's user takes 5 s to type (the central displays), and runs `interruption` 1 s in.
    static func pairingInterrupted(by interruption: @escaping @Sendable (World) -> Void) async throws
        -> (World, Result<PairingResult, AirlinkError>)
    {
        let world = try Self.world(Self.spec(io: .keyboardOnly, user: .attentive(after: .seconds(5))))
        let result = try await world.sim.run { () -> Result<PairingResult, AirlinkError> in
            try await world.connection.connect(timeout: .seconds(3))
            let pairing = world.sim.environment.spawn {
                await caught { () throws(AirlinkError) in
                    try await world.connection.pair(
                        features: PairingFeatures(io: .displayOnly, mitm: true), agent: .attentive)
                }
            }
            try await world.sim.environment.clock.sleep(for: .seconds(1))
            interruption(world)
            return await pairing.value
        }
        return (world, result)
    }

    @Test func aLinkLostMidPairingFailsItWithLinkLost() async throws {
        // Given a pairing waiting for the vault's user, When the link drops 1 s in
        let (world, result) = try await Self.pairingInterrupted { $0.peripheral.dropLink(reason: .supervisionTimeout) }

        // Then the pairing fails with linkLost, not a pairing failure, and no pairing event is reported
        #expect(result.failure?.code == .linkLost)
        #expect(!world.events.values.map(\.name).contains("pairingFailed"))
    }

    @Test func theAdapterOffMidPairingFailsItWithATypedError() async throws {
        // Given a pairing waiting for the vault's user, When the adapter goes off 1 s in
        let (world, result) = try await Self.pairingInterrupted { $0.sim.radio.powerOffAdapter() }

        // Then the pairing fails at once with the link's loss
        #expect([.linkLost, .adapterPoweredOff].contains(result.failure?.code), "\(String(describing: result))")
        #expect(world.sim.now.offset < .seconds(5))
    }

    @Test func pairingWhileDisconnectedFailsAtOnce() async throws {
        let world = try Self.world()
        let result = await caught { () throws(AirlinkError) in try await world.connection.pair() }
        #expect(result.failure?.code == .notConnected)
    }

    @Test(arguments: [UInt32(1_000_000), UInt32.max])
    func aPasskeyOfMoreThanSixDigitsIsRefusedNamingIt(passkey: UInt32) async throws {
        // Given a user who types a passkey of seven digits or more
        let world = try Self.world()

        // When the app pairs
        let result = try await world.sim.run { () -> Result<PairingResult, AirlinkError> in
            try await world.connection.connect(timeout: .seconds(3))
            return await caught { () throws(AirlinkError) in
                try await world.connection.pair(features: Self.keyboard, agent: .entering(passkey))
            }
        }

        // Then it fails with invalidArgument naming the passkey, the entry cancelled (Passkey Entry Failed)
        let error = try #require(result.failure)
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("passkey \(passkey)"))
        #expect(
            world.sim.trace.records.pairingSteps.contains { $0.step == .failed(.passkeyEntryFailed, byCentral: true) })
    }

    @Test func passkeyZeroIsSixDigitsAndPairs() async throws {
        // Given a vault that shows 000000
        let world = try Self.world(Self.spec(passkey: 0))

        // When the user types 0
        let result = try await world.sim.run { () -> PairingResult in
            try await world.connection.connect(timeout: .seconds(3))
            return try await world.connection.pair(features: Self.keyboard, agent: .entering(0))
        }

        // Then pairing succeeds
        #expect(result.level == .authenticatedSecureConnections)
        #expect(world.sim.trace.records.pairingSteps.contains { $0.step == .userEnters(.central, 0) })
    }
}

/// The outcome of `body` as a value.
func caught<Success>(_ body: () async throws(AirlinkError) -> Success) async -> Result<Success, AirlinkError> {
    do throws(AirlinkError) {
        return .success(try await body())
    } catch {
        return .failure(error)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
