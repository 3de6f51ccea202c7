import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Synchronization

/// One run of the BlueZ explorer: a transport and a device manager on the chaotic fixture, the workload
/// through the layers, the driver notifying the counter, everything recorded with the run's clock.
///
/// Real time, on purpose: the fixture is another process. Every wait has a deadline: each operation's own
/// (the layers' and the transport's), and the drain at the end, which waits for the workload no longer
/// than its last operation's bound.
struct BlueZChaosRun: Sendable {
    let fake: FakeBlueZ
    let workload: BlueZChaosWorkload
    let seed: UInt64

    /// The values the fixture accepted to notify, with the time the driver asked for each.
    private final class OnAir: Sendable {
        let values = Mutex<[(time: Duration, bytes: [UInt8])]>([])
    }

    /// Runs the workload and returns what the oracles read.
    func observe() async throws -> ExplorationObservation {
        // The layers' jitter comes from the seed; the clock is the real one, from the start of the run.
        let environment = AirlinkEnvironment(
            clock: AirlinkClock(backend: SystemClockBackend()), executor: nil,
            random: SeededRandomSource(seed: seed), logger: .init(label: "airlink.explore.bluez"))
        let recorder = ScenarioRecorder(environment: environment)
        // Opening is an operation too: the chaos may answer GetManagedObjects late, or restart bluetoothd first.
        let opening = recorder.start("open bluez", timeout: BlueZExplorer.bounds.open)
        let transport: BlueZTransport
        do throws(AirlinkError) {
            transport = try await BlueZTransport.open(BlueZExplorer.configuration(fake))
            recorder.finish(opening, "ok")
        } catch {
            recorder.finish(opening, "failed: \(error.code)")
            return ExplorationObservation(end: environment.clock.now.offset, operations: recorder.operations)
        }
        let manager = DeviceManager(transport: transport, environment: environment)
        let events = manager.events()
        let (published, seen) = AsyncStream.makeStream(of: AirlinkEvent.self)
        let pump = Task {
            for await event in events {
                recorder.record(event)
                seen.yield(event)
            }
        }
        let device = BlueZChaosWorkload.device
        let connection = manager.connection(to: device, reconnection: workload.strategy)
        let service = connection.services.service(BlueZChaosWorkload.service)
        let onAir = OnAir()
        let notifying = notifier(environment, onAir)
        let (received, arrived) = AsyncStream.makeStream(of: [UInt8].self)
        let work = Task { await perform(manager, connection, service, recorder, environment, arrived) }
        let finished = await valueWithin(BlueZExplorer.chaosDuration + BlueZExplorer.bounds.gatt * 2) {
            await work.value
            return true
        }
        work.cancel()
        notifying.cancel()
        _ = await notifying.value
        // The last value sent may be on its way through D-Bus and the layers: wait for it, briefly.
        if workload.subscribe, let last = onAir.values.withLock({ $0.last?.bytes }) {
            _ = await firstWithin(received, .milliseconds(500)) { $0 == last ? true : nil }
        }
        arrived.finish()
        // So may the `terminated` of a disconnect that returned: the event bus and the values are two streams.
        if recorder.operations.contains(where: { $0.name.hasPrefix("disconnect") && !$0.completions.isEmpty }) {
            _ = await firstWithin(published, .milliseconds(500)) { event -> Bool? in
                guard case .connection(_, .terminated) = event else { return nil }
                return true
            }
        }
        seen.finish()
        // What the app saw until now: then the layers are shut down (which ends their streams).
        let end = environment.clock.now.offset
        var observation = ExplorationObservation(
            end: end, events: recorder.events, operations: recorder.operations, values: recorder.values,
            streamEnds: recorder.streamEnds,
            records: onAir.values.withLock { $0 }.map { sent in
                TraceRecord(
                    time: AirlinkInstant(offset: sent.time),
                    event: .attPDU(
                        adapter: 0, device: device, direction: .toCentral,
                        pdu: .handleValueNotification(handle: ATTHandle(rawValue: 0x000C), value: sent.bytes),
                        bytes: [0x1B, 0x0C, 0x00] + sent.bytes))
            },
            clients: [
                .init(
                    device: device, reconnection: workload.reconnection,
                    subscribed: workload.subscribe ? ["\(BlueZChaosWorkload.counter)".uppercased()] : [])
            ])
        if finished == nil {
            // The workload did not end: its pending operation is past its bound, which liveness reports.
            observation.end =
                max(end, (observation.operations.map { $0.start + $0.timeout }.max() ?? end))
                + .milliseconds(1)
        }
        manager.shutdown()
        transport.close()
        pump.cancel()
        return observation
    }

    /// Notifies the counter every `notifyEvery` until cancelled, keeping the values the fixture sent.
    private func notifier(_ environment: AirlinkEnvironment, _ onAir: OnAir) -> Task<Void, Never> {
        let fake = self.fake
        let every = workload.notifyEvery
        return Task {
            var counter: UInt16 = 0
            while !Task.isCancelled {
                counter &+= 1
                let bytes = [UInt8(truncatingIfNeeded: counter), UInt8(truncatingIfNeeded: counter >> 8)]
                let at = environment.clock.now.offset
                if (try? await fake.notify(BlueZChaosWorkload.counterPath, bytes)) == true {
                    onAir.values.withLock { $0.append((at, bytes)) }
                }
                do { try await Task.sleep(for: every) } catch { return }
            }
        }
    }

    /// The workload through the layers, each operation recorded with its bound.
    private func perform(
        _ manager: DeviceManager, _ connection: ConnectionManager, _ service: ServiceManager,
        _ recorder: ScenarioRecorder,
        _ environment: AirlinkEnvironment, _ arrived: AsyncStream<[UInt8]>.Continuation
    ) async {
        let bounds = BlueZExplorer.bounds
        let device = BlueZChaosWorkload.device
        if workload.discoverFirst, let discovery = try? await manager.discover(timeout: .milliseconds(300)) {
            _ = await discovery.waitUntilStopped()
        }
        let connect = recorder.start("connect \(device)", timeout: workload.connectTimeout + BlueZExplorer.Bounds.slack)
        do throws(AirlinkError) {
            try await connection.connect(timeout: workload.connectTimeout)
            recorder.finish(connect, "connected")
        } catch {
            recorder.finish(connect, "failed: \(error.code)")
            return
        }
        if workload.subscribe {
            let counter = BlueZChaosWorkload.counter
            let values = service.values(of: counter)
            Task {
                for await value in values {
                    recorder.record(
                        ScenarioObservedValue(
                            at: environment.clock.now.offset, device: device, service: value.service,
                            characteristic: value.characteristic, bytes: value.bytes, notified: true,
                            missedBefore: value.missedBefore))
                    arrived.yield(value.bytes)
                }
                recorder.recordEnd(of: counter, on: device)
            }
            let index = recorder.start("subscribe \(counter)", timeout: bounds.gatt)
            do throws(AirlinkError) {
                _ = try await service.enableNotifications(for: counter)
                recorder.finish(index, "ok")
            } catch {
                recorder.finish(index, "failed: \(error.code)")
            }
        }
        for step in workload.steps {
            guard !Task.isCancelled else { return }
            switch step {
            case .read(let counter, let after):
                do { try await Task.sleep(for: after) } catch { return }
                let characteristic = counter ? BlueZChaosWorkload.counter : BlueZChaosWorkload.setting
                let index = recorder.start("read \(characteristic)", timeout: bounds.gatt)
                do throws(AirlinkError) {
                    let bytes = try await service.read(characteristic)
                    recorder.finish(index, "ok")
                    recorder.record(
                        ScenarioObservedValue(
                            at: environment.clock.now.offset, device: device, service: BlueZChaosWorkload.service,
                            characteristic: characteristic, bytes: bytes, notified: false, missedBefore: 0))
                } catch {
                    recorder.finish(index, "failed: \(error.code)")
                }
            case .write(let value, let withResponse, let after):
                do { try await Task.sleep(for: after) } catch { return }
                let index = recorder.start("write \(BlueZChaosWorkload.setting)", timeout: bounds.gatt)
                do throws(AirlinkError) {
                    try await service.write(
                        [value], to: BlueZChaosWorkload.setting, type: withResponse ? .withResponse : .withoutResponse)
                    recorder.finish(index, "ok")
                } catch {
                    recorder.finish(index, "failed: \(error.code)")
                }
            }
        }
        if workload.disconnect {
            let index = recorder.start("disconnect \(device)", timeout: bounds.disconnect)
            await connection.disconnect()
            recorder.finish(index, "ok")
        }
    }
}
