import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Foundation
import Synchronization
import Testing

@testable import AirlinkHCI

/// A `--drop-link`/`--notify-burst` timeline belongs to the link that started it: it ends with that link and never
/// acts on the next one to the same peripheral.
@Suite("HCI controller: a link's timeline ends with its link")
struct LinkActionTimelineTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test("a link the host closes at once takes its timeline with it; the next link runs its own")
    func timelineEndsWithItsLink() async throws {
        // Given a served built-in world whose thermostat drops every link 10 s after it comes up, the trace kept (10 s:
        // the world is paced to the wall clock, and a loaded machine must still close the first link before that)
        let simulation = Simulation(seed: 1, strict: false)
        _ = try simulation.add(SimulatedWorld.builtIn)
        let records = Mutex<[TraceRecord]>([])
        let served = try await ServedController.start(
            simulation, name: "timeline",
            actions: [.dropLink(thermostat, after: .seconds(10), reason: .remoteUserTerminated)],
            records: { record in records.withLock { $0.append(record) } })
        defer { served.server.stop() }
        let host = served.host

        // When the host connects, disconnects at once, and connects again
        let first = try await connect(host)
        try host.send(.disconnect, first + [0x13])
        let closed = try await host.event("Disconnection Complete", within: 60) { $0.code == 0x05 }
        #expect(closed.parameters[3] == 0x16, "the host's own disconnection: \(closed)")
        _ = try await connect(host)

        // Then one drop comes, the second link's, with the timeline's reason; the first link's timeline did not act
        let dropped = try await host.event("Disconnection Complete", within: 60) { $0.code == 0x05 }
        #expect(dropped.parameters[3] == 0x13)
        try await served.stop()
        // (the trace's records as the server streamed them: when each link came up, and when the timeline dropped one)
        let streamed = records.withLock { $0 }
        let connected = streamed.compactMap { record -> AirlinkInstant? in
            guard case .connected(_, thermostat, _) = record.event else { return nil }
            return record.time
        }
        let drops = streamed.compactMap { record -> AirlinkInstant? in
            guard case .disconnected(_, thermostat, .remoteUserTerminated) = record.event else { return nil }
            return record.time
        }
        #expect(connected.count == 2 && drops.count == 1, "\(streamed)")
        if let second = connected.last, let drop = drops.first {
            #expect(
                drop.offset - second.offset == .seconds(10),
                "dropped \(drop.offset - second.offset) after the second link")
        }
    }

    /// Connects the host to the thermostat: the link's handle.
    private func connect(_ host: H4TestHost) async throws -> [UInt8] {
        try host.send(.leCreateConnection, HCICommand.createConnectionParameters(to: thermostat))
        let complete = try await host.event("LE Connection Complete", within: 60) {
            $0.code == 0x3E && $0.parameters.first == 0x01
        }
        let parameters = complete.parameters
        #expect(parameters[1] == 0x00, "the connection failed: \(parameters)")
        return Array(parameters[2...3])
    }
}
