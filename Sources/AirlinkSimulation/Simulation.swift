import AirlinkCore
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deterministic world: one executor, one virtual clock, one seeded random source and one trace.
///
/// Everything Airlink does in a simulation runs on the simulation's executor, in an order fixed by
/// the program and the seed; time is virtual and advances only when nothing is ready to run, so a
/// back-off of minutes passes in microseconds. Two simulations in one process share nothing.
///
/// ```swift
/// let sim = Simulation(seed: 7)
/// let value = try await sim.run {
///     try await sim.environment.clock.sleep(for: .seconds(30))
///     return sim.environment.clock.now
/// }
/// // value.offset == .seconds(30); no real time passed
/// ```
///
/// Work that escapes the simulation (a plain `Task {}` or `Task.detached` started by simulated code,
/// a real `Task.sleep`, a job arriving from another thread while the simulation runs) is counted in
/// ``escapedWork``; in strict mode (``isStrict``, on when `AIRLINK_STRICT=1`, as in CI) a run that
/// saw any fails with ``/AirlinkCore/AirlinkError/Code/escapedWork``.
public final class Simulation: Sendable {
    /// The seed of the random source; printed with every failure so the run can be reproduced.
    public let seed: UInt64
    /// Whether escaped work fails a run.
    public let isStrict: Bool
    /// The simulation's trace.
    public let trace: SimulationTrace
    /// Seeded with ``seed``: every random draw of the run (noise, jitter, faults) comes from it.
    public let random: SeededRandomSource
    /// The environment to hand to layers: virtual clock, the simulation's executor, seeded random, trace.
    public let environment: AirlinkEnvironment

    /// The simulation's central adapter on its air: the ``/AirlinkCore/Transport`` to hand to layers under test.
    public let radio: VirtualRadio

    let kernel: SimulationKernel
    let world: RadioWorld
    private let reportedEscapes = Mutex(0)

    /// Creates a simulation.
    ///
    /// - Parameters:
    ///   - seed: the seed of every random draw in the simulation.
    ///   - strict: whether escaped work fails a run; by default, whether `AIRLINK_STRICT` is `1`.
    ///   - tracing: whether the trace keeps lines (off for benchmarks of raw speed).
    ///   - logLevel: the least severe level logged. `nil` (the default): ``defaultLogLevel`` (warnings and
    ///     worse) with the default logger, the given logger's own level with `logger`. The trace is not the
    ///     log: it keeps every event whatever the level.
    ///   - logger: the logger layers log through; `nil` (the default) for swift-log's default handler (standard
    ///     error, unless the app bootstrapped the logging system), labelled `airlink.simulation`.
    public init(
        seed: UInt64, strict: Bool? = nil, tracing: Bool = true, logLevel: AirlinkLogLevel? = nil,
        logger: Logger? = nil
    ) {
        self.seed = seed
        self.isStrict = strict ?? Self.strictFromEnvironment
        let kernel = SimulationKernel()
        self.kernel = kernel
        self.trace = SimulationTrace(clock: kernel, enabled: tracing)
        self.random = SeededRandomSource(seed: seed)
        let level = logLevel ?? (logger == nil ? Self.defaultLogLevel : nil)
        var logger = logger ?? Logger(label: "airlink.simulation")
        if let level { logger.logLevel = level.loggerLevel }
        logger[metadataKey: "seed"] = "\(seed)"
        self.environment = AirlinkEnvironment(
            clock: AirlinkClock(backend: kernel), executor: kernel, random: random, trace: trace, logger: logger)
        let world = RadioWorld(kernel: kernel, environment: environment, trace: trace, tracing: tracing)
        self.world = world
        self.radio = VirtualRadio(world: world)
    }

    deinit {
        windDown()
    }

    /// Ends what is left of the simulation's work, so that nothing of it outlives the simulation:
    /// seals the trace, breaks the radio's cycles (its objects refer to one another and sit in the
    /// kernel's timers), fails what still waits on the radio (a task suspended forever would keep all
    /// it refers to), ends its streams, cancels the tasks sleeping on its clock and runs what that
    /// made ready.
    ///
    /// Done by `deinit`; call it when tasks of the simulation may still hold it (a task sleeping on
    /// its clock that captured it keeps it alive through the kernel's timers). Run no more after.
    package func windDown() {
        trace.seal()
        world.tearDown()
        kernel.windDown()
    }

    /// What a simulation logs without a `logLevel` or a logger of the app's: warnings and worse, so that a test
    /// or a CLI run on the virtual radio stays quiet unless something needs attention.
    public static let defaultLogLevel = AirlinkLogLevel.warning

    /// Whether `AIRLINK_STRICT=1` is set in the process environment.
    public static var strictFromEnvironment: Bool {
        guard let value = getenv("AIRLINK_STRICT") else { return false }
        return String(cString: value) == "1"
    }

    /// The simulation's clock.
    public var clock: AirlinkClock { environment.clock }

    /// Virtual time since the simulation began; it moves only while the simulation runs.
    public var now: AirlinkInstant { kernel.now }

    /// How many times work escaped the simulation so far, with the first few descriptions.
    public var escapedWork: (count: Int, examples: [String]) {
        let escapes = kernel.escapes
        return (escapes.count, escapes.first)
    }

    /// Jobs run, timers fired and timers still armed: the kernel's counters, for benchmarks and reports.
    public var statistics: (jobs: UInt64, timers: UInt64, pendingTimers: Int) { kernel.counters }

    /// Runs `body` as a task of the simulation until it finishes, advancing virtual time as needed.
    ///
    /// Other work of the simulation (advertising peripherals, timers of other tasks) runs as well,
    /// interleaved in virtual time; it stays suspended when `run` returns and goes on in the next run.
    ///
    /// - Parameters:
    ///   - limit: the most virtual time the run may take (a day by default).
    ///   - body: the work to run, on the simulation's executor.
    /// - Returns: what `body` returned.
    /// - Throws: what `body` threw; ``/AirlinkCore/AirlinkError/Code/simulationStalled`` when the simulation is
    ///   idle while `body` is unfinished (it waits on something outside the simulation);
    ///   ``/AirlinkCore/AirlinkError/Code/timeout`` when `limit` passes first;
    ///   ``/AirlinkCore/AirlinkError/Code/escapedWork`` in strict mode when work escaped during the run.
    public func run<Success: Sendable>(
        limit: Duration = .seconds(86_400),
        _ body: sending @escaping () async throws -> Success
    ) async throws -> Success {
        try checkNotNested()
        let outcome = Outcome<Success>()
        let task = Task(executorPreference: kernel) {
            do { outcome.finish(.success(try await body())) } catch { outcome.finish(.failure(error)) }
        }
        let deadline = now.advanced(by: limit)
        let kernel = self.kernel
        let stop = await DriverThread.runDetached {
            kernel.drive(until: deadline) { outcome.isFinished }
        }
        if stop != .done { task.cancel() }
        try checkEscapes()
        switch stop {
        case .done:
            break
        case .stalled:
            throw AirlinkError(
                .simulationStalled,
                "the simulation went idle at t=\(now) while the awaited work was unfinished: it waits on "
                    + "something outside the simulation, or on an event no one will send"
                    + escapeHint() + " (seed \(seed))")
        case .reachedLimit:
            throw AirlinkError(
                .timeout,
                "the awaited work did not finish within \(limit) of virtual time (t=\(now), seed \(seed))")
        }
        return try outcome.result!.get()
    }

    /// Runs the simulation for `duration` of virtual time: everything due in that span happens.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/escapedWork`` in strict mode when work escaped.
    public func run(for duration: Duration) async throws {
        try checkNotNested()
        let end = now.advanced(by: duration)
        let kernel = self.kernel
        _ = await DriverThread.runDetached { kernel.drive(until: end) { false } }
        kernel.advanceTime(to: end)
        try checkEscapes()
    }

    /// Runs everything that is ready now, without advancing virtual time.
    public func runUntilIdle() async throws {
        try await run(for: .zero)
    }

    /// Starts `operation` as a task of the simulation; it runs during the next `run`.
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        environment.spawn(operation)
    }

    private func checkNotNested() throws(AirlinkError) {
        if kernel.isDrivenByCurrentThread {
            throw AirlinkError(
                .invalidArgument,
                "Simulation.run was called from inside the simulation; await the work directly instead")
        }
    }

    func checkEscapes() throws(AirlinkError) {
        let escapes = kernel.escapes
        let new = reportedEscapes.withLock { reported -> Int in
            defer { reported = escapes.count }
            return escapes.count - reported
        }
        guard isStrict, new > 0 else { return }
        throw AirlinkError(
            .escapedWork,
            "\(new) piece(s) of work escaped the simulation (\(escapes.first.joined(separator: "; "))); start tasks "
                + "with environment.spawn and sleep on environment.clock (seed \(seed))")
    }

    private func escapeHint() -> String {
        let escapes = kernel.escapes
        guard escapes.count > 0 else { return "" }
        return "; \(escapes.count) piece(s) of work escaped it: \(escapes.first.joined(separator: "; "))"
    }
}

/// The result of a `run`'s work: set once by the work, read by the driver after every batch of jobs.
private final class Outcome<Success: Sendable>: Sendable {
    private let finished = Atomic<Bool>(false)
    private let storage = Mutex<Result<Success, any Error>?>(nil)

    /// Whether the work has finished; cheap enough to ask after every batch of jobs.
    var isFinished: Bool { finished.load(ordering: .acquiring) }

    /// The result, once finished.
    var result: Result<Success, any Error>? { storage.withLock { $0 } }

    func finish(_ result: sending Result<Success, any Error>) {
        storage.withLock { $0 = result }
        finished.store(true, ordering: .releasing)
    }
}
