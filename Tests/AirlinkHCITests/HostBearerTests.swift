import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Synchronization
import Testing

@Suite("Host bearer on the virtual radio")
struct HostBearerTests {
    /// What the bearer handed on, in order.
    final class Heard: Sendable {
        let advertisements = Mutex<[HostAdvertisement]>([])
        let pdus = Mutex<[[UInt8]]>([])
        var bearer: HostBearer {
            HostBearer(
                advertisement: { report in self.advertisements.withLock { $0.append(report) } },
                att: { _, bytes in self.pdus.withLock { $0.append(bytes) } })
        }
    }

    @Test("a host's link skips the radio's own setup and carries the host's ATT raw, both ways")
    func rawATT() async throws {
        // Given the battery and a radio a host drives
        let simulation = Simulation(seed: 1, strict: false)
        let battery = try simulation.add(.battery())
        let heard = Heard()
        simulation.radio.attachHost(heard.bearer)
        let radio = simulation.radio
        // When the host connects and sends its own MTU exchange
        try await simulation.run {
            _ = try await radio.connect(battery.id, timeout: .seconds(5))
            #expect(radio.sendHostATT(ATTPDU.exchangeMTURequest(clientMTU: 100).encoded, to: battery.id))
            for _ in 0..<100 where heard.pdus.withLock({ $0.isEmpty }) {
                try await simulation.clock.sleep(for: .milliseconds(10))
            }
        }
        // Then the first PDU the host hears answers its request: no MTU exchange of the radio's own came first
        let pdus = heard.pdus.withLock { $0 }
        #expect(pdus.count == 1)
        #expect(pdus.first.flatMap { try? ATTPDU(decoding: $0) } == .exchangeMTUResponse(serverMTU: 247))
    }

    @Test("a scanning host hears the advertising bytes and, scanning actively, the scan response")
    func advertisements() async throws {
        // Given the thermostat, which has a scan response
        let simulation = Simulation(seed: 1, strict: false)
        let thermostat = try simulation.add(.thermostat())
        let heard = Heard()
        simulation.radio.attachHost(heard.bearer)
        let radio = simulation.radio
        // When the host scans actively for a second
        try await simulation.run { try await radio.startScan(ScanFilter(isActive: true)) }
        try await simulation.run(for: .seconds(1))
        // Then it heard the thermostat's bytes with a scan response and an RSSI
        let reports = heard.advertisements.withLock { $0 }
        #expect(!reports.isEmpty)
        #expect(reports.allSatisfy { $0.device == thermostat.id && $0.scanResponse != nil && $0.rssi < 0 })
    }
}
