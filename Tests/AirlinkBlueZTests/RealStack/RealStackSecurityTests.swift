import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import AirlinkTransportContract
import Testing

@testable import AirlinkBlueZ

extension RealStackTests {
    /// Pairing and bonding through the real bluetoothd and the kernel's SMP, with a simulated peripheral whose
    /// value needs an encrypted link: the controller's Security Manager answers as the peripheral (LE legacy
    /// pairing, Just Works) and checks the keys the host encrypts with.
    @Suite("Security on the real Linux stack")
    struct RealStackSecurityTests {
        static let secret = BluetoothUUID("68753A44-4D6F-1226-9C60-0050E4C000AA")!

        /// A peripheral whose secret value is readable on an encrypted link only.
        static func locked() -> PeripheralSpec {
            let permissions: AttributePermissions = [.readable, .readEncryptionRequired]
            return PeripheralSpec(name: "Locked", id: "C0:FF:EE:00:00:0A", preferredMTU: 64) {
                Advertising(every: .milliseconds(100)) {
                    LocalName("Locked")
                }
                Service(.thermostatTemperatureService) {
                    Characteristic(secret, properties: [.read], permissions: permissions, value: UInt8(42))
                }
            }
        }

        @Test("a value that needs encryption: bluetoothd pairs, reads it, and the bond encrypts the next link")
        func pairsAndKeepsTheBond() async throws {
            let spec = Self.locked()
            let world = try await RealBlueZContractWorld.fresh(serving: [spec])
            try await world.run { transport in
                _ = try await world.scanAndConnect(transport, spec.id)
                let handle = try await Self.secretHandle(transport, spec.id)
                // Before pairing, the read is refused for want of encryption
                let refused = await caughtError { _ = try await transport.read(spec.id, handle: handle) }
                #expect(refused != nil, "the secret was read on an unencrypted link")

                // When the app pairs (Just Works)
                let paired = try await transport.pair(
                    spec.id, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
                #expect(paired.level.isEncrypted && paired.bonded, "\(paired)")
                // Then the value reads
                #expect(try await transport.read(spec.id, handle: handle) == [42])

                // And after a disconnection, the next link is encrypted with the bond: the value reads without
                // pairing again
                await transport.disconnect(spec.id)
                _ = try await world.scanAndConnect(transport, spec.id)
                #expect(try await transport.read(spec.id, handle: handle) == [42])
                await transport.disconnect(spec.id)
            }
        }

        static func secretHandle(_ transport: any Transport, _ device: DeviceID) async throws -> ATTHandle {
            let services = try await transport.discoverServices(device, uuids: [.thermostatTemperatureService])
            let service = try #require(services.first)
            let characteristics = try await transport.discoverCharacteristics(device, of: service, uuids: [secret])
            return try #require(characteristics.first).valueHandle
        }
    }
}
