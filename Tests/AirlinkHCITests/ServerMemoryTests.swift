import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Foundation
import Synchronization
import Testing

@testable import AirlinkHCI

/// A controller serves for days: what its hosts make it trace is printed and then forgotten, so its memory does not
/// grow with what they send (Docs/HCIController.md). A host flooding it with commands it does not know leaves the
/// served simulation's trace holding nothing but the lines of the last step, while every line was printed.
@Suite("HCI controller: a flooding host")
struct ServerMemoryTests {
    /// A served built-in world on a Unix socket named for `name`, its printed lines kept, and its run.
    func served(_ name: String, hostWriteDeadline: Duration = .seconds(5)) throws -> (
        server: HCIControllerServer, simulation: Simulation, path: String, lines: PrintedLines,
        running: Task<Void, any Error>
    ) {
        let simulation = Simulation(seed: 1, strict: false)
        _ = try simulation.add(SimulatedWorld.builtIn)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("airlink-\(name)-\(getpid()).sock")
            .path
        let lines = PrintedLines()
        let server = try HCIControllerServer(
            simulation: simulation, endpoint: .unix(path: path), hostWriteDeadline: hostWriteDeadline,
            output: { line in lines.append(line) })
        return (server, simulation, path, lines, Task { try await server.run() })
    }

    @Test("3,000 unknown commands are all printed and none is kept")
    func floodIsPrintedAndForgotten() async throws {
        // Given a served built-in world whose printed lines are kept
        let (server, simulation, path, lines, running) = try served("flood")
        defer { server.stop() }
        let host = try H4TestHost(unix: path)
        try host.send(.reset)
        #expect(try await host.complete(.reset) == [0x00])

        // When the host sends 3,000 vendor commands the controller does not know, a hundred at a time each followed
        // by a command it knows (whose answer the host waits for: a host that never reads blocks the socket)
        let flood = 3_000
        var answered: [UInt8] = []
        for _ in 0..<(flood / 100) {
            for _ in 0..<100 { try host.send(HCIOpcode(ogf: 0x3F, ocf: 0x001)) }
            try host.send(.readBDAddress)
            answered = try await host.complete(.readBDAddress)  // throws, saying so, if the controller stopped
        }

        // (one more command answered: a step prints its lines after answering, so once a later step answered, the
        // flood's last step has printed)
        try host.send(.readBDAddress)
        _ = try await host.complete(.readBDAddress)

        // Then every unknown command was traced and printed, and the trace keeps only what came since the last
        // print (a few lines at most; it kept all 3,000 and more before)
        #expect(answered.first == 0x00)
        #expect(lines.all.filter { $0.contains("unknown HCI command") }.count == flood)
        #expect(simulation.trace.count < 100, "the served trace holds \(simulation.trace.count) lines")
        server.stop()
        try await running.end()
    }

    @Test("a host that only writes is disconnected after its deadline, and the next host is served")
    func aHostThatNeverReadsIsDropped() async throws {
        // Given a served world whose hosts must read within half a second
        let (server, _, path, lines, running) = try served("mute", hostWriteDeadline: .milliseconds(500))
        defer { server.stop() }

        // When a host sends 1,000,000 commands and reads none of the answers (in a scope of its own: the host goes
        // away at its end, so that a controller stalled on it, as it once was, ends the test instead of hanging it)
        do {
            let mute = try H4TestHost(unix: path)
            let (sent, failure) = await mute.sendWithoutReading(HCIOpcode(ogf: 0x3F, ocf: 0x001), count: 1_000_000)

            // Then the controller closes its connection: a send fails, broken pipe or reset, not a send that waited
            // 60 s for a controller stalled writing to a host that does not read
            #expect(sent < 1_000_000, "the controller never closed the connection of a host that reads nothing")
            #expect(
                failure == EPIPE || failure == ECONNRESET,
                "the send failed with errno \(failure.map(String.init) ?? "none")")
        }

        // And the next host is served: Reset is answered, and the trace said why the first host was disconnected
        let next = try H4TestHost(unix: path)
        try next.send(.reset)
        #expect(try await next.complete(.reset, within: 30) == [0x00])
        let printed = lines.all
        #expect(
            printed.contains { $0.contains("the host read nothing for 0.5s") },
            "the trace does not say why the host was disconnected: \(printed.suffix(5))")
        server.stop()
        try await running.end()
    }
}

/// The lines a served controller printed, as they came.
final class PrintedLines: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}
