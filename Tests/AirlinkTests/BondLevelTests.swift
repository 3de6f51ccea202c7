import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// A link encrypted with a bond reports the security of the pairing that made the bond, as the registry keeps
/// it, even when the stack cannot say (BlueZ reports a bonded device's re-encryption as level 2).
@Suite struct BondLevelTests {
    static let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// Connects to a thermostat whose bond the registry keeps as `bond`, then pairs on a stack that answers with
    /// `stack`; returns the pairing's result and the registry.
    static func pair(
        bond: BondRecord, stackReports stack: PairingResult
    ) async throws -> (PairingResult, DeviceRegistry) {
        let sim = Simulation(seed: 7, strict: true)
        let transport = try ScriptedTransport(environment: sim.environment, peripherals: [.thermostat()])
        let registry = DeviceRegistry(repository: InMemoryDeviceRepository())
        let manager = DeviceManager(transport: transport, environment: sim.environment, registry: registry)
        let connection = manager.connection(to: thermostat)
        try await sim.run { try await connection.connect(timeout: .seconds(1)) }
        _ = try await registry.recordBond(bond, of: thermostat)
        await transport.setPairingOutcomes(thermostat, [.success(stack)])
        let result = try await sim.run { try await connection.pair() }
        return (result, registry)
    }

    @Test func encryptingWithABondReportsTheBondsLevel() async throws {
        // Given a connected thermostat whose bond the registry keeps at level 3 with a 12-byte key, on a stack that
        // reports re-encryption with a bond as level 2
        let bond = BondRecord(level: .authenticated, keySize: 12, bonded: RecordTimestamp(secondsSince1970: 1))
        let stack = PairingResult(method: nil, level: .encrypted, keySize: 16, bonded: true)

        // When the app pairs and the stack encrypts with the bond
        let (result, registry) = try await Self.pair(bond: bond, stackReports: stack)

        // Then the result has the bond's level and key size, as the registry says
        #expect(result.method == nil)
        #expect(result.level == .authenticated)
        #expect(result.keySize == 12)
        #expect(try await registry.record(for: Self.thermostat)?.bond == bond)
    }

    @Test func aLevelTheStackKnowsStands() async throws {
        // Given a bond the registry keeps at level 3, on a stack that reports re-encryption at level 4
        let bond = BondRecord(level: .authenticated, keySize: 16, bonded: RecordTimestamp(secondsSince1970: 1))
        let stack = PairingResult(method: nil, level: .authenticatedSecureConnections, keySize: 16, bonded: true)

        // When the app pairs
        let (result, _) = try await Self.pair(bond: bond, stackReports: stack)

        // Then the stack's level is reported
        #expect(result.level == .authenticatedSecureConnections)
    }
}
