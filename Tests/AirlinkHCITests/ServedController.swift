import AirlinkCore
import AirlinkSimulation
import Foundation

@testable import AirlinkHCI

/// A simulation served by the controller on a Unix socket, and a host on that socket.
struct ServedController {
    let server: HCIControllerServer
    let host: H4TestHost
    let running: Task<Void, any Error>

    /// Serves `simulation` (with `actions` on every link) on a socket named after `name`, its trace going to `output`
    /// as lines and to `records` typed, connects a host, resets the controller and unmasks every event.
    static func start(
        _ simulation: Simulation, name: String, actions: [HCIControllerServer.LinkAction] = [], btsnoop: String? = nil,
        output: @escaping @Sendable (String) -> Void = { _ in },
        records: (@Sendable (TraceRecord) -> Void)? = nil
    ) async throws -> ServedController {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("airlink-\(name)-\(getpid()).sock")
            .path
        let server = try HCIControllerServer(
            simulation: simulation, endpoint: .unix(path: path), btsnoop: btsnoop, actions: actions, output: output,
            records: records)
        let running = Task { try await server.run() }
        let host = try H4TestHost(unix: path)
        try host.send(.reset)
        _ = try await host.complete(.reset)
        try host.send(.setEventMask, [UInt8](repeating: 0xFF, count: 8))
        return ServedController(server: server, host: host, running: running)
    }

    /// Stops the server and waits for it to end (30 s at most, ``/_Concurrency/Task/end(within:)``).
    func stop() async throws {
        server.stop()
        try await running.end()
    }
}
