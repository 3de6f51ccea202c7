import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Foundation
import Testing

@testable import AirlinkHCI

/// The initiating state over a served world: it waits for the peer, and ends when the host cancels (Core Spec
/// Vol 6, Part B, 4.5; Vol 4, Part E, 7.8.13).
@Suite("HCI controller: the initiating state")
struct InitiatingStateTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    /// A served built-in world and a host on its Unix socket, reset with every event unmasked and scanning.
    func served(_ name: String) async throws -> (HCIControllerServer, H4TestHost, Task<Void, Error>) {
        let simulation = Simulation(seed: 1, strict: false)
        _ = try simulation.add(SimulatedWorld.builtIn)
        let served = try await ServedController.start(simulation, name: name)
        let (server, host, running) = (served.server, served.host, served.running)
        try host.send(.leSetEventMask, [UInt8](repeating: 0xFF, count: 8))
        try host.send(.leSetScanEnable, [0x01, 0x00])
        return (server, host, running)
    }

    @Test("connecting to an address nobody advertises waits, and LE Create Connection Cancel ends it with 0x02")
    func waitsUntilCancelled() async throws {
        let (server, host, running) = try await served("initiating")
        defer { server.stop() }
        // When the host connects to an address no peripheral of the world has
        let stranger: DeviceID = "11:22:33:44:55:66"
        try host.send(.leCreateConnection, HCICommand.createConnectionParameters(to: stranger))
        // Then it keeps initiating while the world goes on: the world's advertisements come, a connection complete
        // does not (the old controller answered 0x3E at once)
        var reports = 0
        while reports < 3 {
            let event = try await host.event("LE Advertising Report or Connection Complete") {
                $0.code == 0x3E && [0x01, 0x02, 0x0A].contains($0.parameters.first)
            }
            #expect(event.parameters.first == 0x02, "the attempt ended by itself: \(event)")
            reports += 1
        }
        // And when the host cancels, the attempt ends with LE Connection Complete, Unknown Connection Identifier
        try host.send(.leCreateConnectionCancel)
        #expect(try await host.complete(.leCreateConnectionCancel) == [0x00])
        let complete = try await host.event("LE Connection Complete") {
            $0.code == 0x3E && [0x01, 0x0A].contains($0.parameters[0])
        }
        #expect(complete.parameters[1] == 0x02)
        server.stop()
        try await running.end()
    }
}
