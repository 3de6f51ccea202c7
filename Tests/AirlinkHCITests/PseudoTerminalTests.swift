import AirlinkCore
import AirlinkSimulation
import Synchronization
import Testing

@testable import AirlinkHCI

@Suite("HCI controller on a pseudo-terminal")
struct PseudoTerminalTests {
    @Test("a host that opens the printed slave path gets Reset and Read BD_ADDR answered over H4")
    func resetOverPTY() async throws {
        // Given a controller on a new pseudo-terminal
        let simulation = Simulation(seed: 1, strict: false)
        let lines = LinesHeard()
        let server = try HCIControllerServer(
            simulation: simulation, endpoint: .pty(path: nil), output: { lines.append($0) })
        guard case .pty(let path?) = server.endpoint else {
            Issue.record("no slave path: \(server.endpoint)")
            return
        }
        let running = Task { try await server.run() }
        defer { server.stop() }
        // When a host opens the slave side and sends Reset, then Read BD_ADDR
        let host = try H4TestHost(terminal: path)
        try host.send(.reset)
        let reset: [UInt8]
        do {
            reset = try await host.complete(.reset)
        } catch {
            Issue.record("\(error); the controller's trace: \(lines.all)")
            throw error
        }
        try host.send(.readBDAddress)
        let address = try await host.complete(.readBDAddress)
        // Then both are answered with success, and the trace printed the path
        #expect(reset == [0x00])
        #expect(address == [0x00] + DeviceID(BDAddress(value: 0xA1_4C_00_00_00_01)).hciAddress)
        server.stop()
        try await running.end()
        #expect(lines.all.contains { $0.contains("controller listening on pty:\(path)") })
    }
}

/// The lines a server printed.
final class LinesHeard: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
