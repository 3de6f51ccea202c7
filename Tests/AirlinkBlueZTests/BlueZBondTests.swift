import AirlinkBlueZTestSupport
import AirlinkCore
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Bonds on BlueZ: forgetting one is `Adapter1.RemoveDevice` for the device (a RemoveDevice BlueZ never answers
/// ends at its deadline), and a bond that appears or goes outside the app's Pair is a `bondChanged` event.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZBondTests {
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

        // Then it returns at the deadline, not at D-Bus's own 25 s (the bound leaves room for a loaded machine:
        // 3 s was overrun at load 18)
        let (_, took) = try #require(outcome, "forgetBond was still waiting after 6 s")
        #expect(took >= .seconds(2) && took < .seconds(4), "took \(took)")
    }

    @Test(arguments: [false, true])
    func aBondChangingOutsideThePairIsAnEvent(bonded: Bool) async throws {
        // Given a connected thermostat, paired through BlueZ unless the bond is to appear
        let fake = try await FakeBlueZ.fresh()
        let transport: BlueZTransport
        if bonded {
            transport = try await fake.transport()
            _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        } else {
            transport = try await pairedThermostat(fake)
        }
        let events = transport.events()

        // When BlueZ's Paired and Bonded turn to `bonded` without the app's Pair (another tool, lost keys)
        try await fake.setBond("/org/bluez/hci0/dev_C0_FF_EE_00_00_01", bonded: bonded)

        // Then the transport reports the thermostat's bond changed, once
        let changed = await BlueZContractWorld(fake: fake).first(events, within: .seconds(3)) { event -> Bool? in
            if case .bondChanged(let device, let now) = event, device == thermostat { return now }
            return nil
        }
        #expect(changed == bonded)
    }
}
