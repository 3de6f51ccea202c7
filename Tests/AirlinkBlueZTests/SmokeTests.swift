import AirlinkCore
import Testing

@testable import AirlinkBlueZ

@Suite(.fakeBlueZ(), .serialized)
struct SmokeTests {
    @Test func scanConnectRead() async throws {
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        let events = transport.events()
        try await transport.startScan(ScanFilter())
        var seen: [DeviceID] = []
        for await event in events {
            if case .advertisement(let id, _) = event { seen.append(id) }
            if seen.count == 2 { break }
        }
        await transport.stopScan()
        let thermostat: DeviceID = "C0:FF:EE:00:00:01"
        let link = try await transport.connect(thermostat, timeout: .seconds(5))
        #expect(link.mtu == 247)
        let services = try await transport.discoverServices(thermostat, uuids: nil)
        print(services)
        let value = try await transport.read(thermostat, handle: ATTHandle(0x000C))
        #expect(value == [0x66, 0x08])
        await transport.disconnect(thermostat)
        transport.close()
    }
}
