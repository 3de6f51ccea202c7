import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import AirlinkTestSupport
import Testing

/// A peripheral whose spec bonds with every central (`bondsWithCentrals`, for GATT caching) still holds keys only
/// for the centrals that paired: once it forgets its bonds, a bonded central's re-encryption meets PIN or Key
/// Missing, and the layers report the bond lost (Docs/Security.md, "A lost bond").
@Suite struct ForgottenBondsTests {
    @Test func aPeripheralBondingWithEveryCentralThatForgotItsBondsAnswersPINOrKeyMissing() async throws {
        // Given the vault of the pairing tests, bonding with every central, and an app that paired and bonded
        var spec = PairingLayersTests.spec()
        spec.bondsWithCentrals = true
        let world = try PairingLayersTests.world(
            spec, policy: .pairWhenRefused(features: PairingLayersTests.keyboard, agent: .attentive))
        try await world.sim.run {
            try await world.connection.connect(timeout: .seconds(3))
            try await world.connection.pair()
            await world.connection.disconnect()
            await world.manager.waitForRecords()
        }
        #expect(try await world.registry.record(for: PairingLayersTests.vault)?.bond != nil)

        // When the vault forgets its bonds, and the app reconnects and reads the protected value (the policy
        // encrypts with the bond)
        world.peripheral.forgetBonds()
        let (refused, kept) = try await world.sim.run { () -> (Result<[UInt8], AirlinkError>, BondRecord?) in
            try await world.connection.connect(timeout: .seconds(3))
            let refused = await world.read()
            await world.manager.waitForRecords()
            return (refused, try await world.registry.record(for: PairingLayersTests.vault)?.bond)
        }

        // Then the vault answered the encryption with PIN or Key Missing: the read fails with bondLost, the layers
        // report it once and drop the bond from the registry
        #expect(refused.failure?.code == .bondLost, "\(refused)")
        #expect(
            world.sim.trace.records.pairingSteps.contains {
                $0.device == PairingLayersTests.vault && $0.step == .keyMissing
            })
        #expect(world.events.values.map(\.name).filter { $0 == "bondLost" }.count == 1)
        #expect(kept == nil)
    }
}
