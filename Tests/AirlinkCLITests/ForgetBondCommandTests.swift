import AirlinkBlueZTestSupport
import Foundation
import Testing

/// `airlink forget` of a bonded device forgets the bond on the transport too (BlueZ: `Adapter1.RemoveDevice`),
/// so that BlueZ keeps no bond the registry no longer lists.
@Suite(.fakeBlueZ(), .serialized) struct ForgetBondCommandTests {
    @Test func forgettingABondedDeviceRemovesItFromBlueZ() async throws {
        // Given the thermostat paired through BlueZ, its bond in the registry
        let fake = try await FakeBlueZ.fresh()
        let cli = try CLI(environment: ["DBUS_SYSTEM_BUS_ADDRESS": fake.address])
        defer { cli.cleanUp() }
        let registry = cli.directory + "/devices.json"
        #expect(try await cli.run("scan", "--transport", "bluez", "--timeout", "500ms").status == 0)
        let paired = try await cli.run("pair", World.thermostat, "--transport", "bluez", "--registry", registry)
        #expect(paired.status == 0, "\(paired)")

        // When the user forgets it
        let forgot = try await cli.run("forget", World.thermostat, "--transport", "bluez", "--registry", registry)

        // Then the record is gone and BlueZ was asked to remove the device
        #expect(forgot.status == 0, "\(forgot)")
        let removals = try await fake.callLog().filter { $0["method"] as? String == "RemoveDevice" }
        #expect(removals.count == 1)
        let devices = try await cli.run("devices", "--registry", registry, "--json")
        #expect((try devices.json() as? [[String: Any]])?.isEmpty == true, "\(devices)")
    }
}
