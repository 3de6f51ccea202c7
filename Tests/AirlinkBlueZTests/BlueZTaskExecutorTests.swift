import AirlinkBlueZTestSupport
import AirlinkCore
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
            return (values, transport.connection.loop.isLoopThread)
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
            let onLoopThread = transport.connection.loop.isLoopThread
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
}
