import AirlinkCore
import AirlinkProfiles
import AirlinkSimulation
import Foundation
import Synchronization
import Testing

@testable import AirlinkHCI

/// A btsnoop capture written into a FIFO (`tshark -i FIFO`, `--btsnoop /dev/stdout | …`) whose reader goes away
/// stops with a trace line; the controller goes on serving (no SIGPIPE ends it).
@Suite struct BTSnoopPipeTests {
    @Test func aCaptureWhoseReaderLeavesStopsAndTheControllerServesOn() async throws {
        // Given a controller capturing into a FIFO whose reader was there at the start
        let fifo = NSTemporaryDirectory() + "/airlink-snoop-\(getpid()).fifo"
        unlink(fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        let simulation = Simulation(seed: 1, strict: false)
        _ = try simulation.add(SimulatedWorld.builtIn)
        let lines = Mutex<[String]>([])
        let served = try await ServedController.start(
            simulation, name: "snoop-pipe", btsnoop: fifo, output: { line in lines.withLock { $0.append(line) } })
        defer { served.server.stop() }

        // When the reader leaves, and the host goes on sending commands
        close(reader)
        try served.host.send(.reset)
        _ = try await served.host.complete(.reset)
        try served.host.send(.reset)
        _ = try await served.host.complete(.reset)
        try await served.stop()

        // Then the controller answered both, and its trace says once that the capture stopped, and why
        let stopped = lines.withLock { $0 }.filter { $0.contains("the btsnoop capture stopped") }
        #expect(stopped.count == 1, "\(lines.withLock { $0 })")
        #expect(stopped.first?.contains("Broken pipe") == true)
    }
}
