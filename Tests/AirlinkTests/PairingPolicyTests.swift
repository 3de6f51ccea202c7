import Airlink
import AirlinkCore
import AirlinkTestSupport
import Testing

/// The pairing policy's rule on the scripted transport: a refusal for want of security pairs and retries once,
/// never twice, and only Insufficient Authentication or Encryption does it.
@Suite struct PairingPolicyTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    static let refusal = AirlinkError(
        .attribute, "refused", cause: .att(.insufficientAuthentication, handle: ATTHandle(0x0010)))

    static func connected(_ policy: PairingPolicy) async throws -> (TestWorld, ConnectionManager) {
        let world = try TestWorld.make(peripherals: [.thermostat()])
        let connection = world.manager().connection(to: thermostat)
        connection.setPairingPolicy(policy)
        try await world.sim.run { try await connection.connect(timeout: .seconds(1)) }
        return (world, connection)
    }

    static func readTemperature(_ world: TestWorld, _ connection: ConnectionManager) async throws
        -> Result<[UInt8], AirlinkError>
    {
        try await world.sim.run {
            await caught { () throws(AirlinkError) in
                try await connection.services.service(Thermostat.service).read(Thermostat.temperature)
            }
        }
    }

    /// Both refusals pairing can cure: Insufficient Authentication (0x05) and Insufficient Encryption (0x0F).
    static let curable: [ATTError] = [.insufficientAuthentication, .insufficientEncryption]

    @Test(arguments: curable)
    func aRefusedReadPairsAndRunsOnceMore(_ refusal: ATTError) async throws {
        // Given the policy, and a device that refuses the next read for want of security
        let (world, connection) = try await Self.connected(.pairWhenRefused())
        await world.radio.failNextRequest(
            Self.thermostat, with: AirlinkError(.attribute, "refused", cause: .att(refusal, handle: ATTHandle(0x0010))))

        // When the app reads
        let result = try await Self.readTemperature(world, connection)

        // Then the read succeeds after one pairing
        #expect(result.failure == nil)
        #expect(await world.scripted.pairingCount(Self.thermostat) == 1)
    }

    @Test(arguments: curable)
    func aRefusedWritePairsAndRunsOnceMore(_ refusal: ATTError) async throws {
        // Given the policy, and a device that refuses the next write for want of security
        let (world, connection) = try await Self.connected(.pairWhenRefused())
        await world.radio.failNextRequest(
            Self.thermostat, with: AirlinkError(.attribute, "refused", cause: .att(refusal, handle: ATTHandle(0x0012))))

        // When the app writes the unit
        let result = try await world.sim.run {
            await caught { () throws(AirlinkError) in
                try await connection.services.service(Thermostat.service).write([UInt8]([1]), to: Thermostat.unit)
            }
        }

        // Then the write succeeds after one pairing
        #expect(result.failure == nil)
        #expect(await world.scripted.pairingCount(Self.thermostat) == 1)
    }

    @Test func aReadRefusedAgainAfterPairingFailsWithoutPairingTwice() async throws {
        // Given the policy, and a device that refuses two reads in a row
        let (world, connection) = try await Self.connected(.pairWhenRefused())
        await world.radio.failNextRequest(Self.thermostat, with: Self.refusal)
        await world.radio.failNextRequest(Self.thermostat, with: Self.refusal)

        // When the app reads
        let result = try await Self.readTemperature(world, connection)

        // Then the retry's refusal is the answer: one pairing, not a loop
        #expect(result.failure?.attError == .insufficientAuthentication)
        #expect(await world.scripted.pairingCount(Self.thermostat) == 1)
    }

    @Test func otherRefusalsDoNotPair() async throws {
        // Given the policy, and a device that refuses with Insufficient Authorization (pairing cannot help)
        let (world, connection) = try await Self.connected(.pairWhenRefused())
        await world.radio.failNextRequest(
            Self.thermostat,
            with: AirlinkError(.attribute, "refused", cause: .att(.insufficientAuthorization, handle: nil)))

        // When the app reads, Then it fails without pairing
        let result = try await Self.readTemperature(world, connection)
        #expect(result.failure?.attError == .insufficientAuthorization)
        #expect(await world.scripted.pairingCount(Self.thermostat) == 0)
    }

    @Test func aFailedPairingFailsTheReadWithThePairingError() async throws {
        // Given the policy, a refused read, and a pairing the device ends with Pairing Not Supported
        let (world, connection) = try await Self.connected(.pairWhenRefused())
        await world.radio.failNextRequest(Self.thermostat, with: Self.refusal)
        await world.scripted.setPairingOutcomes(
            Self.thermostat,
            [.failure(AirlinkError(.pairingFailed, "refused", cause: .smp(.pairingNotSupported)))])

        // When the app reads
        let result = try await Self.readTemperature(world, connection)

        // Then the read fails with the pairing's error, which says what was refused, and pairingFailed is reported
        #expect(result.failure?.pairingFailureReason == .pairingNotSupported)
        #expect(result.failure?.context?.contains("was refused") == true, "\(String(describing: result.failure))")
        #expect(
            world.events.contains(
                "C0:FF:EE:00:00:01 pairingFailed pairingFailed: refused "
                    + "(SMP Pairing Failed: Pairing Not Supported (0x05))"
            ))
    }
}

extension TestWorld {
    /// The scripted transport underneath, for what only it can script (pairing outcomes, counts).
    var scripted: ScriptedTransport { transport as! ScriptedTransport }
}
