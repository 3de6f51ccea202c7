import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Testing

@testable import AirlinkHCI

@Suite("A scenario's world served over HCI")
struct ServedWorldTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test("the scenario's timeline drops the host's link, which hears Disconnection Complete with its reason")
    func timelineLinkLoss() async throws {
        // Given a scenario whose timeline drops the thermostat's links at 10 s with reason 0x14, served by the
        // controller on a Unix socket
        let scenario = try Scenario.parse(
            """
            name: served
            duration: 30s
            world:
              - builtIn: thermostat
            timeline:
              - at: 10s
                do: dropLink
                device: Thermostat
                reason: "0x14"
            """)
        let simulation = Simulation(seed: 1, strict: false)
        _ = try scenario.serve(in: simulation)
        let served = try await ServedController.start(simulation, name: "served-world")
        defer { served.server.stop() }
        let host = served.host
        // When the host connects to the thermostat at once
        try host.send(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat))
        let complete = try await host.event("LE Connection Complete") { $0.code == 0x3E && $0.parameters.first == 0x01 }
        #expect(complete.parameters[1] == 0x00)
        let handle = Array(complete.parameters[2...3])
        try host.send(.readRSSI, handle)
        let rssi = try await host.complete(.readRSSI)
        // Then the timeline's link loss reaches it as Disconnection Complete with the scenario's reason
        let disconnection = try await host.event("Disconnection Complete") { $0.code == 0x05 }
        #expect(disconnection.parameters[0] == 0x00)
        #expect(disconnection.parameters[3] == 0x14)
        // And Read RSSI, sent while the link was up, answered with the radio's measurement of it (a negative dBm,
        // not 127); on a machine slow enough that the paced timeline reached 10 s first, with Unknown Connection
        // Identifier (0x02) for the handle that had gone (`HCIControllerTests.readRSSI` checks both without timing)
        if rssi.first != 0x02 {
            #expect(rssi.first == 0x00)
            #expect(rssi.count == 4 && Int8(bitPattern: rssi[3]) < 0, "\(rssi)")
        }
        try await served.stop()
    }
}
