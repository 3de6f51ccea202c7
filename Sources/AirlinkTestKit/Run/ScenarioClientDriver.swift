import Airlink
import AirlinkCore
import AirlinkSimulation

/// Performs a scenario's `client:` behaviour through the `Airlink` layers, recording every operation.
struct ScenarioClientDriver: Sendable {
    let behaviour: ResolvedScenario.Client
    let context: ScenarioContext

    /// The ATT transaction timeout (Core Spec Vol 3, Part F, 3.3.3): the bound on a GATT operation.
    static let gattTimeout: Duration = .seconds(30)

    /// The entry's app's device manager.
    var manager: DeviceManager { context.managers[behaviour.app - 1] }

    /// A line of the entry's trace: the first app's as it is, a further app's with its number.
    func traced(_ event: ClientTraceEvent) -> TraceEvent {
        .client(behaviour.app == 1 ? event : .app(behaviour.app, event))
    }

    func start() {
        let client = behaviour.client
        let (app, entry) = (behaviour.app, behaviour.index)
        let device = behaviour.device
        let context = self.context
        let recorder = context.recorder
        let trace = context.simulation.trace
        let strategy: any ReconnectionStrategy = client.reconnection?.strategy ?? NoReconnectionStrategy()
        let connection = manager.connection(to: device, reconnection: strategy)
        if let policy = client.pairWhenRefused {
            connection.setPairingPolicy(.pairWhenRefused(features: policy.features, agent: policy.agent))
        }
        let clock = context.environment.clock
        context.simulation.spawn {
            if let at = client.connectAt?.duration {
                do { try await clock.sleep(until: AirlinkInstant(offset: at)) } catch { return }
            }
            let timeout = client.connectTimeout?.duration ?? .seconds(5)
            let operation = recorder.start(
                "connect \(device)", timeout: timeout, app: behaviour.app, client: behaviour.index)
            do throws(AirlinkError) {
                try await connection.connect(timeout: timeout)
                recorder.finish(operation, "connected")
                trace.record(traced(.connected(device)))
            } catch {
                recorder.finish(operation, "failed: \(error.code)")
                trace.record(traced(.connectFailed(device, error.code)))
                return
            }
            for reference in client.subscribe ?? [] {
                let service = connection.services.service(reference.service.uuid)
                let values = service.values(of: reference.characteristic.uuid)
                let type = reference.type ?? .bytes
                context.simulation.spawn {
                    for await value in values {
                        recorder.record(
                            ScenarioObservedValue(
                                time: clock.now.offset, device: device, service: value.service,
                                characteristic: value.characteristic, bytes: value.bytes, notified: true,
                                missedBefore: value.missedBefore, app: app, client: entry))
                        trace.record(
                            traced(
                                .notified(
                                    target: "\(value.characteristic)", value: type.text(of: value.bytes),
                                    missed: value.missedBefore)))
                    }
                    recorder.recordEnd(of: reference.characteristic.uuid, on: device, app: app, client: entry)
                }
                let index = recorder.start(
                    "subscribe \(reference.characteristic)", timeout: Self.gattTimeout, app: behaviour.app,
                    client: behaviour.index)
                do throws(AirlinkError) {
                    let mode = try await service.enableNotifications(for: reference.characteristic.uuid)
                    recorder.finish(index, "ok")
                    trace.record(traced(.subscribed(target: "\(reference.characteristic)", mode: mode)))
                } catch {
                    recorder.finish(index, "failed: \(error.code)")
                    trace.record(traced(.subscribeFailed(target: "\(reference.characteristic)", error.code)))
                }
            }
            if let observe = client.observe { await self.observe(observe, on: connection) }
        }
        for operation in client.read ?? [] { schedule(operation, connection: connection, write: false) }
        for operation in client.write ?? [] { schedule(operation, connection: connection, write: true) }
        if let at = client.unsubscribeAt?.duration, let references = client.subscribe, !references.isEmpty {
            repeating(at: ScenarioDuration(at), every: nil, count: 1) {
                for reference in references {
                    let index = recorder.start(
                        "unsubscribe \(reference.characteristic)", timeout: Self.gattTimeout, app: behaviour.app,
                        client: behaviour.index)
                    do throws(AirlinkError) {
                        try await connection.services.service(reference.service.uuid).disableNotifications(
                            for: reference.characteristic.uuid)
                        recorder.finish(index, "ok")
                        trace.record(traced(.unsubscribed(target: "\(reference.characteristic)")))
                    } catch {
                        recorder.finish(index, "failed: \(error.code)")
                        trace.record(traced(.unsubscribeFailed(target: "\(reference.characteristic)", error.code)))
                    }
                }
            }
        }
        if let at = client.forgetAt?.duration, let registry = manager.registry {
            repeating(at: ScenarioDuration(at), every: nil, count: 1) {
                let index = recorder.start(
                    "forget \(device)", timeout: Self.gattTimeout, app: behaviour.app, client: behaviour.index)
                do throws(AirlinkError) {
                    let known = try await registry.forget(device)
                    recorder.finish(index, "ok")
                    trace.record(traced(.forgot(device, known: known)))
                } catch {
                    recorder.finish(index, "failed: \(error.code)")
                    trace.record(traced(.forgetFailed(device, error.code)))
                }
            }
        }
        if let pairing = client.pair { pair(pairing, on: connection) }
        if let at = client.disconnectAt?.duration {
            context.simulation.spawn {
                do { try await clock.sleep(until: AirlinkInstant(offset: at)) } catch { return }
                let index = recorder.start(
                    "disconnect \(device)", timeout: Self.gattTimeout, app: behaviour.app, client: behaviour.index)
                await connection.disconnect()
                recorder.finish(index, "ok")
                trace.record(traced(.disconnected(device)))
            }
        }
    }

    private func schedule(_ operation: ScenarioOperation, connection: ConnectionManager, write: Bool) {
        let context = self.context
        let recorder = context.recorder
        let trace = context.simulation.trace
        let clock = context.environment.clock
        let device = behaviour.device
        repeating(at: operation.at, every: operation.every, count: operation.count) {
            let service = connection.services.service(operation.service.uuid)
            let characteristic = operation.characteristic.uuid
            let verb: ClientTraceEvent.Operation = write ? .write : .read
            let index = recorder.start(
                "\(verb.rawValue) \(characteristic)", timeout: Self.gattTimeout, app: behaviour.app,
                client: behaviour.index)
            do throws(AirlinkError) {
                if write, let value = operation.value {
                    try await service.write(
                        value.bytes, to: characteristic,
                        type: operation.withoutResponse ? .withoutResponse : .withResponse)
                    recorder.finish(index, "ok")
                    trace.record(traced(.wrote(target: "\(characteristic)", value: value.type.text(of: value.bytes))))
                } else {
                    let bytes = try await service.read(characteristic)
                    recorder.finish(index, "ok")
                    recorder.record(
                        ScenarioObservedValue(
                            time: clock.now.offset, device: device, service: operation.service.uuid,
                            characteristic: characteristic, bytes: bytes, notified: false, missedBefore: 0,
                            app: behaviour.app, client: behaviour.index))
                    trace.record(traced(.read(target: "\(characteristic)", value: operation.type.text(of: bytes))))
                }
            } catch {
                recorder.finish(index, "failed: \(error.code)")
                trace.record(traced(.failed(verb, target: "\(characteristic)", error.code)))
            }
        }
    }

    /// Runs `body` at `at` (from the start of the run), then every `every`, `count` times at most;
    /// once when there is no period. A late run delays the next ones rather than bunching them.
    func repeating(
        at: ScenarioDuration?, every: ScenarioDuration?, count: Int?, _ body: @escaping @Sendable () async -> Void
    ) {
        let clock = context.environment.clock
        context.simulation.spawn {
            var next = at?.duration ?? every?.duration ?? .seconds(1)
            var done = 0
            while count.map({ done < $0 }) ?? true {
                do { try await clock.sleep(until: AirlinkInstant(offset: next)) } catch { return }
                await body()
                done += 1
                guard let every = every?.duration else { return }
                next = max(next + every, clock.now.offset)
            }
        }
    }
}
