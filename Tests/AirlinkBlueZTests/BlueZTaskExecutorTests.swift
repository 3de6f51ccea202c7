import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkTransportContract
import Foundation
import Testing

@testable import AirlinkBlueZ

/// Tasks that prefer the D-Bus thread (``BlueZTransport/taskExecutor``) on the fake BlueZ.
@Suite(.fakeBlueZ(), .serialized)
struct BlueZTaskExecutorTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01"

    @Test func callsFromATaskOnTheDBusThreadGetTheSameReplies() async throws {
        // Given a connected thermostat, read once from an ordinary task
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        let expected = try await transport.read(thermostat, handle: ContractHandles.temperature)

        // When a task that prefers the D-Bus thread reads it again and again
        let (values, onLoopThread) = try await withTaskExecutorPreference(transport.taskExecutor) {
            var values: [[UInt8]] = []
            for _ in 0..<20 { values.append(try await transport.read(thermostat, handle: ContractHandles.temperature)) }
            return (values, transport.connection.loop.isJobThread)
        }

        // Then every read returns the value, and the task ran on the D-Bus thread
        #expect(values == Array(repeating: expected, count: 20))
        #expect(onLoopThread)
        await transport.disconnect(thermostat)
    }

    @Test func aTaskOnTheDBusThreadGoesOnAfterTheTransportCloses() async throws {
        // Given a task on the D-Bus thread of a connected transport
        let fake = try await FakeBlueZ.fresh()
        let transport = try await fake.transport()
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)

        // When the transport closes under it, and it suspends and reads
        let (outcome, stillOnLoopThread) = await withTaskExecutorPreference(transport.taskExecutor) {
            () async -> (AirlinkError.Code?, Bool) in
            transport.close()
            await Task.yield()
            let onLoopThread = transport.connection.loop.isJobThread
            do {
                _ = try await transport.read(thermostat, handle: ContractHandles.temperature)
                return (nil, onLoopThread)
            } catch {
                return ((error as? AirlinkError)?.code, onLoopThread)
            }
        }

        // Then it went on on the global executor, and the read failed as on any closed transport
        #expect(!stillOnLoopThread)
        #expect(outcome == .transportUnavailable)
    }

    @Test func appCodeBlockingTheDBusThreadStallsNeitherCallsNorDeadlines() async throws {
        // Given a connected thermostat on a transport whose calls wait 1 s, and a task on the D-Bus thread
        // that blocks (app code that waits for something, here for the test's go-ahead, 20 s at most)
        let fake = try await FakeBlueZ.fresh()
        var configuration = fake.configuration()
        configuration.operationTimeout = .seconds(1)
        let transport = try await BlueZTransport.open(configuration)
        _ = try await BlueZContractWorld(fake: fake).scanAndConnect(transport, thermostat)
        let expected = try await transport.read(thermostat, handle: ContractHandles.temperature)
        let goAhead = DispatchSemaphore(value: 0)
        let (started, start) = AsyncStream.makeStream(of: Bool.self)
        let blocker = Task(executorPreference: transport.taskExecutor) {
            start.yield(transport.connection.loop.isJobThread)
            return Self.block(on: goAhead, limit: .seconds(20))
        }
        let blocksTheDBusThread = await firstWithin(started, .seconds(5)) { $0 }
        try #require(blocksTheDBusThread == true, "the blocking task did not start on the D-Bus thread")

        // When, while it blocks, an ordinary task reads, a task that prefers the D-Bus thread reads,
        // and a read BlueZ never answers waits for its deadline
        let read = try await endedWithin(.seconds(5)) {
            try await self.reads(transport, count: 1)
        }
        let readOnLoop = try await endedWithin(.seconds(5)) {
            try await withTaskExecutorPreference(transport.taskExecutor) { try await self.reads(transport, count: 1) }
        }
        try await fake.hangNext("ReadValue")
        let hung = try await endedWithin(.seconds(5)) {
            try await self.reads(transport, count: 1)
        }
        goAhead.signal()
        let blockerWaited = await blocker.value

        // Then the reads are answered and the deadline fires on time, all while the app code blocks
        let (readResult, readTook) = try #require(read, "a read was still waiting after 5 s")
        #expect(try readResult.get() == [expected])
        #expect(readTook < .seconds(1), "took \(readTook)")
        let (onLoopResult, _) = try #require(readOnLoop, "a read on the D-Bus thread was still waiting after 5 s")
        #expect(try onLoopResult.get() == [expected])
        let (hungResult, hungTook) = try #require(hung, "the never-answered read was still waiting after 5 s")
        #expect(code(hungResult) == .timeout)
        // (The block lasts until after this read ended: a deadline it stalled would not end within 5 s. The upper
        // bound leaves room for a loaded machine, as the other deadline tests do.)
        #expect(hungTook >= .seconds(1) && hungTook < .seconds(3), "took \(hungTook)")
        #expect(blockerWaited, "the blocking task gave up before the test let it go")
        await transport.disconnect(thermostat)
    }

    /// Reads the temperature `count` times.
    private func reads(_ transport: BlueZTransport, count: Int) async throws -> [[UInt8]] {
        var values: [[UInt8]] = []
        for _ in 0..<count { values.append(try await transport.read(thermostat, handle: ContractHandles.temperature)) }
        return values
    }

    /// Blocks the calling thread until `semaphore` is signalled (`true`) or `limit` passes (`false`): app
    /// code that blocks, as a test stands it in.
    private static func block(on semaphore: DispatchSemaphore, limit: Duration) -> Bool {
        semaphore.wait(timeout: .now() + .milliseconds(Int(limit.components.seconds * 1_000))) == .success
    }
}
