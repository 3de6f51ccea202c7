import Airlink
import AirlinkCore
import AirlinkRegistry
import AirlinkSimulation
import Logging

/// Runs a scenario in a `Simulation(seed:strict:)` and checks it: its expectations and the built-in
/// invariants (every operation completes or fails within its timeout; no connection event after a
/// terminal one; no duplicate callbacks).
///
/// ```swift
/// let scenario = try Scenario.load(path: "Simulations/linear-link-loss.yaml")
/// let result = try await ScenarioRunner().run(scenario)
/// #expect(result.passed, "\(result.summary)")
/// try result.trace.assertMatches("Simulations/linear-link-loss.trace")
/// ```
public struct ScenarioRunner: Sendable {
    /// Whether the simulation keeps its trace (needed for golden traces and `noNotificationLost`).
    public var tracing: Bool

    /// The logger layers log through (errors only by default: the trace tells what happened).
    public var logger: Logger

    /// Called with the virtual time reached, at each hundredth of the run's duration, so that a tool
    /// can show progress on a long run (`airlink simulate` does, on a terminal); `nil` by default.
    ///
    /// It runs on the simulation's executor and must return at once. It changes nothing the run
    /// does: the trace and the result are the same with or without it.
    public var progress: (@Sendable (Duration) -> Void)?

    /// Called with the run's context at its end, once its managers are shut down: tests keep weak
    /// references to its objects to see that nothing of a finished run outlives it.
    package var onFinish: (@Sendable (ScenarioContext) -> Void)?

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - tracing: whether the simulation keeps its trace.
    ///   - logger: the layers' logger; by default one that logs errors only.
    public init(tracing: Bool = true, logger: Logger? = nil) {
        self.tracing = tracing
        var quiet = Logger(label: "airlink.scenario")
        quiet.logLevel = .error
        self.logger = logger ?? quiet
    }

    /// Runs a scenario with its own client behaviour (its `client:` section).
    ///
    /// - Parameters:
    ///   - scenario: the scenario.
    ///   - seed: the seed; the scenario's by default.
    /// - Returns: the result: expectations, invariant violations, trace and statistics.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidSpecification`` when the world or a reference in the
    ///   scenario is wrong; ``/AirlinkCore/AirlinkError/Code/escapedWork`` when work escaped the simulation.
    public func run(_ scenario: Scenario, seed: UInt64? = nil) async throws(AirlinkError) -> ScenarioResult {
        try await run(scenario, seed: seed, useScenarioClient: true) { _ in }
    }

    /// Runs a scenario's world and timeline with the user's own client code instead of its `client:` section.
    ///
    /// - Parameters:
    ///   - scenario: the scenario.
    ///   - seed: the seed; the scenario's by default.
    ///   - client: the app's code; it runs as a task of the simulation from virtual time zero, and the
    ///     run lasts the scenario's `duration` whether or not it returns.
    /// - Returns: the result, with the scenario's expectations checked against what `client` did.
    /// - Throws: as ``run(_:seed:)``.
    public func run(
        _ scenario: Scenario, seed: UInt64? = nil, client: @escaping @Sendable (ScenarioContext) async -> Void
    ) async throws(AirlinkError) -> ScenarioResult {
        try await run(scenario, seed: seed, useScenarioClient: false, client: client)
    }

    private func run(
        _ scenario: Scenario, seed: UInt64?, useScenarioClient: Bool,
        client: @escaping @Sendable (ScenarioContext) async -> Void
    ) async throws(AirlinkError) -> ScenarioResult {
        let seed = seed ?? scenario.seed
        let simulation = Simulation(seed: seed, strict: true, tracing: tracing, logger: logger)
        if let central = scenario.central { simulation.radio.linkParameters = central.parameters }
        let recorder = ScenarioRecorder(environment: simulation.environment)
        var peripherals: [SimulatedPeripheral] = []
        var inspectors: [ScenarioRunningInspector] = []
        let background = ScenarioBackgroundTasks()
        defer {
            // Tasks sleeping on the clock hold the context, and so the simulation: wind it down
            // rather than wait for a deinit that would never come (a sweep would keep every run).
            background.cancelAll()
            simulation.windDown()
        }
        for (index, description) in scenario.world.enumerated() {
            guard let declaration = description.inspector else {
                peripherals.append(try simulation.add(ScenarioBuiltIns.spec(for: description, at: index)))
                continue
            }
            // An app on its own adapter: on air from t=0, a peripheral of the world like the others.
            let inspector = try await ScenarioRunningInspector.start(
                declaration, index: index, in: simulation, recorder: recorder, background: background)
            guard let peripheral = simulation.peripheral(inspector.id) else {
                throw AirlinkError(.internalError, "world[\(index)]: the inspector is not on air after starting")
            }
            inspectors.append(inspector)
            peripherals.append(peripheral)
        }
        // Each app a registry in memory: the run checks that it agrees with the connections the app made.
        // The first app is on the radio, a further one on a session of the same adapter.
        let registries = (0..<scenario.appCount).map { _ in DeviceRegistry(repository: InMemoryDeviceRepository()) }
        let managers = registries.enumerated().map { app, registry in
            DeviceManager(
                transport: app == 0 ? simulation.radio : simulation.radio.session(),
                environment: simulation.environment,
                configuration: .init(databaseCaching: scenario.databaseCaching), registry: registry)
        }
        let context = ScenarioContext(
            simulation: simulation, managers: managers, peripherals: peripherals, recorder: recorder,
            inspectors: inspectors, background: background)
        let resolved = try ResolvedScenario(scenario, context: context)

        for (app, manager) in managers.enumerated() {
            let events = manager.events()
            simulation.spawn {
                for await event in events { recorder.record(event, app: app + 1) }
            }
        }
        ScenarioTimeline(actions: resolved.actions, context: context).start()
        if useScenarioClient {
            for behaviour in resolved.clients {
                ScenarioClientDriver(behaviour: behaviour, context: context).start()
            }
        } else {
            simulation.spawn { await client(context) }
        }
        if let progress {
            let step = scenario.duration.duration / 100
            let clock = simulation.clock
            simulation.spawn {
                var reached = Duration.zero
                // try?: sleep throws only when cancelled, as the run ends; progress stops with it
                while reached < scenario.duration.duration, (try? await clock.sleep(for: step)) != nil {
                    reached += step
                    progress(reached)
                }
            }
        }
        do {
            try await simulation.run(for: scenario.duration.duration)
        } catch let error as AirlinkError {
            throw error
        } catch {
            throw AirlinkError(.invalidArgument, "the scenario's run failed: \(error)")
        }
        let records: [[ConnectionRecord]]
        do {
            records = try await simulation.run {
                var records: [[ConnectionRecord]] = []
                for (manager, registry) in zip(managers, registries) {
                    await manager.waitForRecords()
                    records.append(try await registry.knownDevices())
                }
                return records
            }
        } catch let error as AirlinkError {
            throw error
        } catch {
            throw AirlinkError(.internalError, "the scenario's registry could not be read: \(error)")
        }
        let evaluation = ScenarioEvaluation(
            scenario: scenario, resolved: resolved, recorder: recorder, trace: simulation.trace,
            end: scenario.duration.duration,
            handle: { device, reference in
                // try?: a characteristic the peripheral lacks at the end (its database changed) has no handle; the
                // on-air count is skipped then, and the values the app received are still checked
                try? peripherals.first { $0.id == device }?.valueHandle(
                    of: reference.characteristic.uuid, in: reference.service.uuid)
            })
        var result = ScenarioResult(
            name: scenario.name ?? "scenario", seed: seed, duration: scenario.duration.duration,
            expectations: [],
            violations: evaluation.invariantViolations() + evaluation.registryViolations(records),
            statistics: evaluation.statistics(), events: recorder.events, values: recorder.values,
            operations: recorder.operations, trace: simulation.trace, actions: resolved.actions.map(\.action),
            devices: peripherals.map {
                ScenarioResult.Device(
                    // try?: the peripheral was added, so its advertising encoded then (PeripheralSpec.validate())
                    name: $0.name, id: $0.id, advertisingData: (try? $0.spec.advertising?.advertisingData()) ?? [],
                    connectable: $0.spec.advertising?.isConnectable ?? false)
            })
        result.inspected = recorder.inspected
        result.streamEnds = recorder.streamEnds
        result.registry = records[0]
        result.registries = records
        let judged = result
        var observation: ExplorationObservation?
        result.expectations = evaluation.expectations { name in
            let observed = observation ?? ExplorationObservation(scenario: scenario, result: judged)
            observation = observed
            guard let oracle = ExplorationOracles.all.first(where: { $0.name == name }) else {
                return ["no oracle is named '\(name)'"]
            }
            return oracle.violations(in: observed)
        }
        for manager in managers { manager.shutdown() }
        onFinish?(context)
        return result
    }
}
