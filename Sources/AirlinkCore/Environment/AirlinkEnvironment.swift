import Logging

/// Everything with an effect that Airlink's layers use: clock, executor, random source, trace, log.
///
/// A `Simulation` hands out an environment of virtual time, its own serial executor and a seeded
/// random source; ``live(logger:)`` gives the real ones. The same layer code runs on both, which is
/// what makes a simulated run a faithful test of the code that runs on an adapter.
public struct AirlinkEnvironment: Sendable {
    /// The clock layers read and sleep on.
    public var clock: AirlinkClock
    /// The executor layers start their tasks on (`nil`: Swift's global concurrent executor).
    public var executor: (any TaskExecutor)?
    /// The random source for jitter and back-off.
    public var random: any RandomSource
    /// Where events are recorded for traces.
    public var trace: any TraceSink
    /// The logger layers log through; libraries never bootstrap the logging system.
    public var logger: Logger

    /// Creates an environment from its parts.
    public init(
        clock: AirlinkClock,
        executor: (any TaskExecutor)?,
        random: any RandomSource,
        trace: any TraceSink = DiscardingTraceSink(),
        logger: Logger
    ) {
        self.clock = clock
        self.executor = executor
        self.random = random
        self.trace = trace
        self.logger = logger
    }

    /// The environment for real hardware: `ContinuousClock`, the global executor, the system random
    /// generator, no trace.
    public static func live(logger: Logger = Logger(label: "airlink")) -> AirlinkEnvironment {
        AirlinkEnvironment(
            clock: AirlinkClock(backend: SystemClockBackend()), executor: nil, random: SystemRandomSource(),
            logger: logger)
    }

    /// Starts `operation` as a task on this environment's executor.
    ///
    /// Layers start every task through this method (never `Task {}` or `Task.detached`), so that in
    /// simulation the work stays on the simulation's executor and in order.
    @discardableResult
    public func spawn<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        Task(executorPreference: executor, priority: priority, operation: operation)
    }

    /// Starts a throwing `operation` as a task on this environment's executor.
    @discardableResult
    public func spawnThrowing<Success: Sendable>(
        priority: TaskPriority? = nil,
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: executor, priority: priority, operation: operation)
    }
}
