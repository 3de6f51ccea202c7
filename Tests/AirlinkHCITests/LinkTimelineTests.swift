import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Foundation
import Synchronization
import Testing

@testable import AirlinkHCI

@Suite("A link's timeline of actions")
struct LinkTimelineTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"
    let battery: DeviceID = "B4:77:E2:00:00:02"

    @Test("a link's timeline ends with its link: a burst due after the host disconnected is never sent")
    func timelineEndsWithItsLink() async throws {
        // Given the controller serving the battery and the thermostat, with a timeline per link: the battery bursts
        // 3 notifications 3 s after its link comes up, the thermostat drops its link 3 s after its own
        let scenario = try Scenario.parse(
            """
            name: timeline
            duration: 30s
            world:
              - builtIn: battery
              - builtIn: thermostat
            """)
        let simulation = Simulation(seed: 1, strict: false)
        _ = try scenario.serve(in: simulation)
        let lines = Mutex<[String]>([])
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("airlink-timeline-\(getpid()).sock")
            .path
        let server = try HCIControllerServer(
            simulation: simulation, endpoint: .unix(path: path),
            actions: [
                .burst(battery, after: .seconds(3), count: 3, of: BluetoothUUID(0x2A19)),
                .dropLink(thermostat, after: .seconds(3), reason: .remoteLowResources),
            ], output: { line in lines.withLock { $0.append(line) } })
        let running = Task { try await server.run() }
        defer { server.stop() }
        let host = try H4TestHost(unix: path)
        host.send(.reset)
        _ = try await host.complete(.reset)
        host.send(.setEventMask, [UInt8](repeating: 0xFF, count: 8))

        // When the host links to the battery and ends that link at once, then links to the thermostat
        host.send(.leCreateConnection, HCICommand.createConnectionParameters(to: battery))
        let batteryLink = try #require(
            try await host.event(within: 120) { $0.code == 0x3E && $0.parameters.first == 0x01 })
        #expect(batteryLink.parameters[1] == 0x00)
        host.send(.disconnect, Array(batteryLink.parameters[2...3]) + [0x13])
        let batteryDown = try await host.event(within: 120) { $0.code == 0x05 }
        #expect(batteryDown?.parameters[0] == 0x00)
        host.send(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat))
        let thermostatLink = try #require(
            try await host.event(within: 120) { $0.code == 0x3E && $0.parameters.first == 0x01 })
        #expect(thermostatLink.parameters[1] == 0x00)

        // Then the thermostat's timeline runs (its link dropped 3 s after it came up, later than the battery's burst
        // was due), and the battery's ended with the battery's link: no burst was sent
        let thermostatDown = try await host.event(within: 120) { $0.code == 0x05 }
        #expect(thermostatDown?.parameters[3] == 0x14)
        server.stop()
        try await running.value
        let faults = lines.withLock { $0 }.filter { $0.contains(" fault ") }
        #expect(faults.contains { $0.contains("\(thermostat) drops its link") }, "\(faults)")
        #expect(!faults.contains { $0.contains("\(battery) sends") || $0.contains("bursts") }, "\(faults)")
    }
}
