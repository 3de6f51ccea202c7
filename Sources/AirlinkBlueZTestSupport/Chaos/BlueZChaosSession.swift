import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Synchronization

/// One session of the app in a BlueZ explorer run: a transport opened (again, after bluetoothd restarted),
/// a device manager with the run's registry, the clients' work through the layers, everything the app saw
/// recorded with the run's clock. It ends when the clients are done, or when the transport reports BlueZ
/// gone (`adapterStateChanged(.unavailable)`): then the app needs a new one.
///
/// Real time, on purpose: the fixture is another process. Every wait has a deadline.
struct BlueZChaosSession: Sendable {
    /// What a session gives: the observation its oracles judge, and whether BlueZ went away during it.
    struct Outcome: Sendable {
        var observation: ExplorationObservation
        var lost: Bool
    }

    /// What one client did in the session, for the observation's client.
    struct Subscription: Sendable {
        var subscribed = false
        var unsubscribeAt: Duration?
    }

    /// The session's mutable record: whether BlueZ went away, and each client's subscription.
    final class State: Sendable {
        let lost = Mutex(false)
        let subscriptions = Mutex<[Int: Subscription]>([:])
    }

    let context: BlueZChaosContext
    /// 1 for the first session; a later one reopens the transport and connects only to known devices.
    let number: Int
    /// Stops the driver's notifications (the last session drains what is on its way).
    let stopNotifying: @Sendable () async -> Void

    /// Runs the session.
    func run() async -> Outcome {
        let environment = context.environment
        let recorder = ScenarioRecorder(environment: environment)
        let began = environment.clock.now.offset
        guard let base = await open(recorder) else {
            return Outcome(
                observation: ExplorationObservation(end: environment.clock.now.offset, operations: recorder.operations),
                lost: false)
        }
        let transport = AttemptRecordingTransport(base, clock: environment.clock)
        let manager = DeviceManager(transport: transport, environment: environment, registry: context.registry)
        let state = State()
        let events = manager.events()
        let (published, seen) = AsyncStream.makeStream(of: AirlinkEvent.self)
        let (gone, goneSignal) = AsyncStream.makeStream(of: Void.self)
        // Real tasks on purpose: a BlueZ session runs against real processes, in real time.
        let pump = Task {
            for await event in events {
                recorder.record(event)
                seen.yield(event)
                if case .adapterStateChanged(.unavailable) = event {
                    state.lost.withLock { $0 = true }
                    goneSignal.yield()
                }
            }
        }
        let (received, arrived) = AsyncStream.makeStream(of: (DeviceID, [UInt8]).self)
        let work = Task { await clients(manager, recorder, state, arrived) }
        let finished = await valueWithin(BlueZExplorer.chaosDuration + BlueZExplorer.bounds.gatt * 2) {
            await withTaskGroup(of: Bool.self) { group in
                group.addTask {
                    await work.value
                    return true
                }
                group.addTask {
                    for await _ in gone { return false }
                    return false
                }
                let first = await group.next() ?? false
                group.cancelAll()
                return first
            }
        }
        let lost = state.lost.withLock { $0 }
        if lost {
            // Pending operations fail promptly once BlueZ is gone: let the clients record them.
            _ = await valueWithin(BlueZExplorer.bounds.gatt) { await work.value }
        } else {
            await stopNotifying()
            await drain(state, received, published, recorder)
        }
        work.cancel()
        arrived.finish()
        seen.finish()
        goneSignal.finish()
        // What the app saw until now: then the layers are shut down (which ends their streams).
        var end = environment.clock.now.offset
        if finished == nil && !lost {
            // The work did not end: its pending operation is past its bound, which liveness reports.
            end = max(end, (recorder.operations.map { $0.start + $0.timeout }.max() ?? end)) + .milliseconds(1)
        }
        let observation = self.observation(began..<end, recorder, transport, state)
        _ = await valueWithin(.seconds(1)) { await manager.waitForRecords() }
        manager.shutdown()
        base.close()
        pump.cancel()
        return Outcome(observation: observation, lost: lost)
    }

    /// Opens the transport, recorded as an operation; a later session retries while org.bluez has no owner
    /// (bluetoothd restarting), within the restart's gap.
    private func open(_ recorder: ScenarioRecorder) async -> BlueZTransport? {
        let bound = BlueZExplorer.bounds.open + (number > 1 ? BlueZExplorer.Bounds.restartGap : .zero)
        let opening = recorder.start(number > 1 ? "reopen bluez" : "open bluez", timeout: bound)
        let clock = context.environment.clock
        let deadline = clock.now.offset + bound - BlueZExplorer.bounds.open
        while true {
            do throws(AirlinkError) {
                let transport = try await BlueZTransport.open(BlueZExplorer.configuration(context.fake))
                recorder.finish(opening, "ok")
                return transport
            } catch {
                guard number > 1, clock.now.offset < deadline else {
                    recorder.finish(opening, "failed: \(error.code)")
                    return nil
                }
                // Nothing announces org.bluez's return to a client without a connection: try again shortly
                // (try?: a cancelled pause ends with the session, whose deadline is checked above).
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    /// Waits, briefly, for what is on its way: the last value sent to each subscribed device, and the
    /// `terminated` of each disconnect that returned (the event bus and the values are two streams).
    private func drain(
        _ state: State, _ received: AsyncStream<(DeviceID, [UInt8])>, _ published: AsyncStream<AirlinkEvent>,
        _ recorder: ScenarioRecorder
    ) async {
        let subscribed = state.subscriptions.withLock { $0 }.filter { $0.value.subscribed }.keys.sorted()
        let awaited = Mutex(
            Dictionary(
                subscribed.compactMap { index -> (DeviceID, [UInt8])? in
                    let device = context.workload.clients[index].peripheral.device
                    return context.lastSent(to: device).map { (device, $0) }
                }, uniquingKeysWith: { first, _ in first }))
        if !awaited.withLock({ $0.isEmpty }) {
            _ = await firstWithin(received, .milliseconds(500)) { device, bytes -> Bool? in
                awaited.withLock { awaited in
                    if awaited[device] == bytes { awaited[device] = nil }
                    return awaited.isEmpty ? true : nil
                }
            }
        }
        let disconnected = Mutex(
            Set(
                recorder.operations.filter { $0.name.hasPrefix("disconnect ") && !$0.completions.isEmpty }
                    .map { String($0.name.dropFirst("disconnect ".count)) }))
        if !disconnected.withLock({ $0.isEmpty }) {
            _ = await firstWithin(published, .milliseconds(500)) { event -> Bool? in
                guard case .connection(let device, .terminated) = event else { return nil }
                return disconnected.withLock { pending in
                    pending.remove("\(device)")
                    return pending.isEmpty ? true : nil
                }
            }
        }
    }

    /// What the oracles read of the session: its records, the attempts the layers started, and the values
    /// the fixture notified during it (as ATT notifications on air).
    private func observation(
        _ span: Range<Duration>, _ recorder: ScenarioRecorder, _ transport: AttemptRecordingTransport, _ state: State
    ) -> ExplorationObservation {
        let sent = context.onAir.withLock { $0 }.filter { span.contains($0.time) }
        let notifications = sent.map { sent in
            TraceRecord(
                time: AirlinkInstant(offset: sent.time),
                event: .attPDU(
                    adapter: 0, device: sent.device, direction: .toCentral,
                    pdu: .handleValueNotification(handle: ATTHandle(rawValue: 0x000C), value: sent.bytes),
                    bytes: [0x1B, 0x0C, 0x00] + sent.bytes))
        }
        let subscriptions = state.subscriptions.withLock { $0 }
        let clients = subscriptions.keys.sorted().map { index in
            let client = context.workload.clients[index]
            let subscription = subscriptions[index] ?? Subscription()
            return ExplorationObservation.Client(
                device: client.peripheral.device, reconnection: client.reconnection,
                subscribed: subscription.subscribed ? ["\(client.peripheral.counter)".uppercased()] : [],
                unsubscribeAt: subscription.unsubscribeAt)
        }
        return ExplorationObservation(
            end: span.upperBound, events: recorder.events, operations: recorder.operations, values: recorder.values,
            streamEnds: recorder.streamEnds,
            records: (transport.attempts + notifications).sorted { $0.time < $1.time }, clients: clients)
    }
}
