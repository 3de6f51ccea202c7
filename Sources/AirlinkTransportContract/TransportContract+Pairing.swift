import AirlinkCore
import Testing

extension TransportContract {
    /// Pairing with a device that asks for no user (Just Works) bonds; pairing again on a bonded device uses the
    /// bond (no method); pairing a device that is not connected fails at once, typed.
    public static func pairsAndBonds(_ world: some TransportContractWorld) async throws {
        // Given a transport connected to the thermostat, which pairs Just Works
        try await world.run { transport in
            let refused = await caughtError {
                _ = try await transport.pair(
                    world.battery, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
            }
            _ = try await world.scanAndConnect(transport, world.thermostat)

            // When the app pairs, then pairs again
            let first = try await transport.pair(
                world.thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
            let second = try await transport.pair(
                world.thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)

            // Then the first pairs Just Works, encrypted and bonded; the second encrypts with the bond
            #expect(first.method == .justWorks && first.level == .encrypted && first.bonded)
            #expect(second.method == nil && second.level.isEncrypted)
            // And pairing the battery, never connected, failed at once with a typed error
            #expect(
                refused.map { [.notConnected, .deviceNotFound].contains($0.code) } == true,
                "\(String(describing: refused))")
            await transport.disconnect(world.thermostat)
        }
    }
}

/// The error `body` threw, or `nil`.
package func caughtError(_ body: () async throws -> Void) async -> AirlinkError? {
    do {
        try await body()
        return nil
    } catch let error as AirlinkError {
        return error
    } catch {
        return AirlinkError(.internalError, "\(error)")
    }
}
