import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Forgetting a bond on BlueZ: `Adapter1.RemoveDevice` for the device, and a RemoveDevice BlueZ never answers
/// ends at its deadline.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZForgetBondTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    private func pairedThermostat(_ fake: FakeBlueZ, operationTimeout: Duration = .seconds(30)) async throws
        -> BlueZTransport
    {
        var configuration = fake.configuration()
        configuration.operationTimeout = operationTimeout
        let transport = try await BlueZTransport.open(configuration)
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        _ = try await transport.pair(thermostat, features: PairingFeatures(io: .noInputNoOutput), agent: .refusing)
        return transport
    }

    @Test func forgettingABondRemovesTheDeviceFromBlueZ() async throws {
        // Given a thermostat paired through BlueZ
        let fake = try await FakeBlueZ.fresh()
        let transport = try await pairedThermostat(fake)

        // When the app forgets the bond
        await transport.forgetBond(thermostat)

        // Then BlueZ was asked to remove that device (bluetoothd drops its keys with it)
        let removals = try await fake.callLog().filter { $0["method"] as? String == "RemoveDevice" }
        #expect(removals.count == 1)
        let arguments = removals.first?["args"] as? [String: Any]
        #expect(arguments?["device"] as? String == "/org/bluez/hci0/dev_C0_FF_EE_00_00_01")
    }

    @Test func aRemoveDeviceBlueZNeverAnswersEndsAtItsDeadline() async throws {
        // Given a paired thermostat, operations allowed 2 s, and a RemoveDevice BlueZ never answers
        let fake = try await FakeBlueZ.fresh()
        let transport = try await pairedThermostat(fake, operationTimeout: .seconds(2))
        try await fake.hangNext("RemoveDevice")

        // When the app forgets the bond
        let outcome = try await endedWithin(.seconds(6)) { await transport.forgetBond(self.thermostat) }

        // Then it returns at the deadline, not later
        let (_, took) = try #require(outcome, "forgetBond was still waiting after 6 s")
        #expect(took >= .seconds(2) && took < .seconds(3), "took \(took)")
    }
}
