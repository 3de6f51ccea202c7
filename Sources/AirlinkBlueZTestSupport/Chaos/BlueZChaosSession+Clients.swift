import Airlink
import AirlinkCore
import AirlinkTestKit

// Real time throughout this file, on purpose: the clients work against the fake BlueZ, another process.
// Each wait is bounded (the operations' own deadlines, and the run's).

extension BlueZChaosSession {
    /// The clients' work, all at once: in the first session every client (after a scan, if drawn); in a
    /// later one those the app is not done with and whose device the registry knows
    /// (``/Airlink/DeviceManager/connection(toKnown:reconnection:)``: a forgotten device is not reopened).
    func clients(
        _ manager: DeviceManager, _ recorder: ScenarioRecorder, _ state: State,
        _ arrived: AsyncStream<(DeviceID, [UInt8])>.Continuation
    ) async {
        if number == 1, context.workload.discoverFirst,
            // try?: a discovery that fails (the chaos under test) leaves the client connecting by address.
            let discovery = try? await manager.discover(timeout: .milliseconds(300))
        {
            _ = await discovery.waitUntilStopped()
        }
        var chosen: [(Int, ConnectionManager)] = []
        for (index, client) in context.workload.clients.enumerated() {
            if context.progress.withLock({ $0[index].finished }) { continue }
            let connection: ConnectionManager
            if number == 1 {
                connection = manager.connection(to: client.peripheral.device, reconnection: client.strategy)
            } else {
                do throws(AirlinkError) {
                    connection = try await manager.connection(
                        toKnown: client.peripheral.device, reconnection: client.strategy)
                } catch {
                    continue
                }
            }
            state.subscriptions.withLock { $0[index] = Subscription() }
            chosen.append((index, connection))
        }
        await withTaskGroup(of: Void.self) { group in
            for (index, connection) in chosen {
                group.addTask { await perform(index, connection, recorder, state, arrived) }
            }
        }
    }

    /// One client's work through the layers, each operation recorded with its bound.
    private func perform(
        _ index: Int, _ connection: ConnectionManager, _ recorder: ScenarioRecorder, _ state: State,
        _ arrived: AsyncStream<(DeviceID, [UInt8])>.Continuation
    ) async {
        let client = context.workload.clients[index]
        let peripheral = client.peripheral
        let device = peripheral.device
        let service = connection.services.service(peripheral.service)
        let operation = Operation(recorder: recorder)
        // The app tries its first connect three times, 200 ms apart, before it gives the device up.
        var connected = false
        for attempt in 1...3 where !connected && !state.lost.withLock({ $0 }) {
            if attempt > 1 {
                // Real time on purpose, as the rest of a BlueZ run: the retries of an app, 200 ms apart.
                do { try await Task.sleep(for: .milliseconds(200)) } catch { return }
            }
            connected = await operation.run(
                "connect \(device)", timeout: client.connectTimeout + BlueZExplorer.Bounds.slack, success: "connected"
            ) { () async throws(AirlinkError) in try await connection.connect(timeout: client.connectTimeout) }
        }
        guard connected else { return }
        if client.subscribe, !context.progress.withLock({ $0[index].unsubscribed }) {
            subscribe(index, service, recorder, state, arrived)
            state.subscriptions.withLock { $0[index]?.subscribed = true }
            _ = await operation.run("subscribe \(peripheral.counter)") { () async throws(AirlinkError) in
                _ = try await service.enableNotifications(for: peripheral.counter)
            }
        }
        while !Task.isCancelled, !state.lost.withLock({ $0 }) {
            let next = context.progress.withLock { $0[index].next }
            guard next < client.steps.count else { break }
            let step = client.steps[next]
            // Real time on purpose: the app's pace between steps, against a real process.
            do { try await Task.sleep(for: step.after) } catch { return }
            guard !state.lost.withLock({ $0 }) else { return }
            context.progress.withLock { $0[index].next += 1 }
            await perform(step, of: client, service, operation, state, index)
        }
        guard client.disconnect, !Task.isCancelled, !state.lost.withLock({ $0 }) else { return }
        let disconnect = recorder.start("disconnect \(device)", timeout: BlueZExplorer.bounds.disconnect)
        await connection.disconnect()
        recorder.finish(disconnect, "ok")
        context.progress.withLock { $0[index].finished = true }
    }

    /// One step: a read, a write, an unsubscribe (once, when subscribed in this session) or a forget.
    private func perform(
        _ step: BlueZChaosWorkload.Step, of client: BlueZChaosWorkload.Client, _ service: DeviceService,
        _ operation: Operation, _ state: State, _ index: Int
    ) async {
        let peripheral = client.peripheral
        let environment = context.environment
        switch step {
        case .read(let counter, _):
            let characteristic = counter ? peripheral.counter : peripheral.setting
            _ = await operation.run("read \(characteristic)") { () async throws(AirlinkError) in
                let bytes = try await service.read(characteristic)
                operation.recorder.record(
                    ScenarioObservedValue(
                        at: environment.clock.now.offset, device: peripheral.device, service: peripheral.service,
                        characteristic: characteristic, bytes: bytes, notified: false, missedBefore: 0))
            }
        case .write(let value, let withResponse, _):
            _ = await operation.run("write \(peripheral.setting)") { () async throws(AirlinkError) in
                try await service.write(
                    [value], to: peripheral.setting, type: withResponse ? .withResponse : .withoutResponse)
            }
        case .unsubscribe:
            guard state.subscriptions.withLock({ $0[index]?.subscribed == true }),
                !context.progress.withLock({ $0[index].unsubscribed })
            else { return }
            context.progress.withLock { $0[index].unsubscribed = true }
            _ = await operation.run("unsubscribe \(peripheral.counter)") { start in
                // The oracle knows this client's unsubscribe by its start.
                state.subscriptions.withLock { $0[index]?.unsubscribeAt = start }
            } body: { () async throws(AirlinkError) in
                try await service.disableNotifications(for: peripheral.counter)
            }
        case .forget:
            let registry = context.registry
            _ = await operation.run("forget \(peripheral.device)") { () async throws(AirlinkError) in
                _ = try await registry.forget(peripheral.device)
            }
        }
    }

    /// Records the counter's notified values from now until the stream ends.
    private func subscribe(
        _ index: Int, _ service: DeviceService, _ recorder: ScenarioRecorder, _ state: State,
        _ arrived: AsyncStream<(DeviceID, [UInt8])>.Continuation
    ) {
        let peripheral = context.workload.clients[index].peripheral
        let values = service.values(of: peripheral.counter)
        let clock = context.environment.clock
        // A real task on purpose: it follows values the real fixture sends, in real time.
        Task {
            for await value in values {
                recorder.record(
                    ScenarioObservedValue(
                        at: clock.now.offset, device: peripheral.device, service: value.service,
                        characteristic: value.characteristic, bytes: value.bytes, notified: true,
                        missedBefore: value.missedBefore))
                arrived.yield((peripheral.device, value.bytes))
            }
            recorder.recordEnd(of: peripheral.counter, on: peripheral.device)
        }
    }
}

/// Records an app operation around its call: its start and bound, then `ok`, or the error's code.
struct Operation: Sendable {
    let recorder: ScenarioRecorder

    /// Runs `body` as the operation `name`, bounded by `timeout` (a GATT operation's by default), telling
    /// `started` its recorded start first; whether it succeeded.
    func run(
        _ name: String, timeout: Duration = BlueZExplorer.bounds.gatt, success: String = "ok",
        started: (Duration) -> Void = { _ in }, body: () async throws(AirlinkError) -> Void
    ) async -> Bool {
        let index = recorder.start(name, timeout: timeout)
        started(recorder.operations[index].start)
        do {
            try await body()
            recorder.finish(index, success)
            return true
        } catch {
            recorder.finish(index, "failed: \(error.code.description)")
            return false
        }
    }
}
