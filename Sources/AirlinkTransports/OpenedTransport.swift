import AirlinkCore
import Synchronization

/// A transport ready for use, with what a caller needs around it: the environment the layers take
/// their clock and executor from, how to run async work, and how to close it.
///
/// On the virtual radio, ``run(_:)`` runs work inside the simulation (virtual time passes at once)
/// and the environment is the simulation's; on BlueZ, work runs on the transport's D-Bus thread
/// (`BlueZTransport.taskExecutor`, so a reply resumes it without a thread hop) and the environment is
/// the live one with that executor. A caller writes its work once and never needs to know which transport it has:
///
/// ```swift
/// let opened = try await selector.open("sim")
/// defer { opened.close() }
/// let manager = DeviceManager(transport: opened.transport, environment: opened.environment)
/// try await opened.run { try await manager.discover(named: "Thermostat", timeout: .seconds(5)) }
/// ```
public final class OpenedTransport: Sendable {
    /// Runs a job to its end in the transport's world: inside `Simulation.run` on the virtual radio,
    /// on the D-Bus thread on BlueZ. It returns when the job has returned or thrown.
    public typealias Runner =
        @Sendable (_ job: sending @escaping @Sendable () async throws -> Void) async throws -> Void

    /// The transport, for the layers (`DeviceManager(transport:environment:)`).
    public let transport: any Transport
    /// Where the layers take their clock, executor, random source and logger from: the simulation's on
    /// `sim`, ``/AirlinkCore/AirlinkEnvironment/live(logger:)`` with the D-Bus thread as executor on BlueZ.
    public let environment: AirlinkEnvironment
    /// What the user typed to get this transport; `sim` tells the caller it works on the built-in world.
    public let specifier: TransportSpecifier
    private let runner: Runner
    /// The closing work, taken out by the first ``close()`` so that it runs once.
    private let closing: Mutex<(@Sendable () -> Void)?>

    /// Creates an opened transport; a ``TransportSelector`` hook builds one for the virtual radio.
    ///
    /// - Parameters:
    ///   - transport: the open transport.
    ///   - environment: the environment the layers above it must use.
    ///   - specifier: what named it.
    ///   - run: how to run a job to its end (see ``Runner``); directly by default.
    ///   - close: ends the transport's event streams and releases it; ``close()`` calls it at most once.
    public init(
        transport: any Transport, environment: AirlinkEnvironment, specifier: TransportSpecifier,
        run: @escaping Runner = { job in try await job() }, close: @escaping @Sendable () -> Void
    ) {
        self.transport = transport
        self.environment = environment
        self.specifier = specifier
        self.runner = run
        self.closing = Mutex(close)
    }

    /// Whether this is the virtual radio (`sim`), whose world is built in and whose time is virtual.
    public var isSimulated: Bool {
        if case .simulation = specifier { return true }
        return false
    }

    /// Runs `body` in the transport's world: in virtual time on `sim`, on the D-Bus thread on BlueZ.
    ///
    /// - Returns: what `body` returned.
    /// - Throws: what `body` threw, or what the runner threw (on `sim`, a stalled simulation or its
    ///   time limit: see `Simulation.run(limit:_:)`).
    public func run<Success: Sendable>(_ body: @escaping @Sendable () async throws -> Success)
        async throws -> Success
    {
        let result = ResultSlot<Success>()
        try await runner { result.store(try await body()) }
        guard let value = result.take() else {
            throw AirlinkError(.internalError, "the transport's runner returned without running the job")
        }
        return value
    }

    /// Closes the transport: its event streams end and pending operations fail. Only the first call
    /// does anything, so a `defer` and an error path may both call it.
    public func close() {
        let close = closing.withLock { closing in
            defer { closing = nil }
            return closing
        }
        close?()
    }
}

/// Carries a job's value out of a ``OpenedTransport/Runner``, which returns nothing.
private final class ResultSlot<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    func store(_ value: Value) { self.value.withLock { $0 = value } }

    func take() -> Value? { value.withLock { $0 } }
}
