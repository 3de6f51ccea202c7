import Airlink
import AirlinkCore
import AirlinkSimulation

/// An inspector of a scenario's world, on air: an `Inspector` on its own `VirtualRadio` of the
/// simulation, its values kept by the inspector, what centrals do to it in the trace (category
/// `inspector`) and its accepted writes recorded for `written` expectations.
struct ScenarioRunningInspector: Sendable {
    /// What the scenario declared.
    let declaration: ScenarioInspector
    /// The inspector.
    let inspector: Inspector
    /// Its address on the air (its adapter's).
    let id: DeviceID

    /// Creates the inspector and puts it on air at the simulation's current time.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` naming the world entry when a value or
    ///   the name is refused.
    static func start(
        _ declaration: ScenarioInspector, index: Int, in simulation: Simulation, recorder: ScenarioRecorder,
        background: ScenarioBackgroundTasks
    ) async throws(AirlinkError) -> ScenarioRunningInspector {
        let radio = VirtualRadio(simulation: simulation)
        let inspector = Inspector(name: declaration.name, transport: radio, environment: simulation.environment)
        let running = ScenarioRunningInspector(declaration: declaration, inspector: inspector, id: radio.address)
        func invalid(_ error: AirlinkError) -> AirlinkError {
            AirlinkError(.invalidSpecification, "world[\(index)] inspector \"\(declaration.name)\": \(error.message)")
        }
        do {
            for value in declaration.values {
                try inspector.inspect(value.identifier, initialValue: value.value, options: value.options)
            }
        } catch {
            throw invalid(error)
        }
        running.trace(
            radio.peripheralEvents(), inspector.events(), simulation: simulation, recorder: recorder,
            background: background)
        do {
            try await simulation.run { () async throws in try await inspector.start() }
        } catch let error as AirlinkError {
            throw invalid(error)
        } catch {
            throw AirlinkError(.internalError, "world[\(index)] inspector \"\(declaration.name)\": \(error)")
        }
        return running
    }

    /// Writes what centrals do to the trace, and records accepted writes, in tasks kept by `background`.
    private func trace(
        _ centrals: EventStream<PeripheralEvent>, _ writes: EventStream<InspectorEvent>, simulation: Simulation,
        recorder: ScenarioRecorder, background: ScenarioBackgroundTasks
    ) {
        let trace = simulation.trace
        let name = declaration.name
        let (inspector, id) = (self.inspector, self.id)
        let centralsTask = simulation.spawn {
            for await event in centrals {
                switch event {
                case .centralConnected(let central):
                    trace.record(.inspector(.centralConnected(inspector: name, central: central)))
                case .centralDisconnected(let central, let reason):
                    trace.record(.inspector(.centralLeft(inspector: name, central: central, reason: reason)))
                case .subscriptionChanged(let central, _, let characteristic, let mode):
                    let identifier = inspector.identifier(of: characteristic) ?? "\(characteristic)"
                    trace.record(
                        .inspector(
                            .subscriptionChanged(inspector: name, central: central, value: identifier, mode: mode)))
                case .pairingRequested, .paired, .pairingFailed:
                    break  // the radio's smp lines trace pairing
                }
            }
        }
        let writesTask = simulation.spawn {
            for await event in writes {
                switch event {
                case .written(let identifier, let value):
                    trace.record(.inspector(.written(inspector: name, identifier: identifier, value: "\(value)")))
                    recorder.record(value, of: identifier, on: id, .written)
                case .refused(let identifier, let error):
                    trace.record(.inspector(.writeRefused(inspector: name, identifier: identifier, error: error)))
                }
            }
        }
        background.add(centralsTask)
        background.add(writesTask)
    }

    /// Changes a value the inspector keeps (a timeline's `setValue`), notifying subscribers.
    func setValue(_ value: InspectedValue, for identifier: String, trace: any TraceSink) async {
        do throws(AirlinkError) {
            try await inspector.setValue(value, for: identifier)
        } catch {
            trace.record("scenario", "setValue failed: \(error.message)")
        }
    }
}
