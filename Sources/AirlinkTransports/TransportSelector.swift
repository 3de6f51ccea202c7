import AirlinkBlueZ
import AirlinkCore

/// Opens the transport a user named, so that the CLI and apps choose `sim`, `sim:RECORDING.yaml`, `bluez` or
/// `bluez:hci1` with one string and layers above never import a concrete transport.
///
/// ```swift
/// let opened = try await TransportSelector().open(CommandLine.arguments.dropFirst().first ?? "sim")
/// defer { opened.close() }
/// ```
///
/// What it returns is an ``OpenedTransport``: the transport with its environment, the way to run work
/// on it and the way to close it, so that a caller never downcasts to a concrete transport. The virtual
/// radio is opened through ``makeSimulated``: by default ``simulation(seed:logLevel:logger:world:)``, the
/// built-in simulated world (or the recorded device of `sim:PATH`) with seed 1; pass that with another seed or
/// level, or a hook of your own (`Simulation.opened(as:limit:)`) for a world of your own.
public struct TransportSelector: Sendable {
    /// Opens the virtual radio for `sim` (`nil`) or `sim:PATH` (the scenario's path): builds the
    /// simulation and returns its radio, its environment, a runner that runs jobs inside it and a
    /// close that ends the radio's event streams.
    public typealias SimulatedFactory =
        @Sendable (_ scenario: String?) async throws(AirlinkError) -> OpenedTransport

    /// The hook that opens the virtual radio; ``simulation(seed:logLevel:logger:world:)`` unless another
    /// was given. Setting it to `nil` turns `sim` off (it then fails with
    /// ``/AirlinkCore/AirlinkError/Code/transportUnavailable``).
    public var makeSimulated: SimulatedFactory?
    /// The BlueZ configuration, whose adapter the specifier overrides; its logger is also the logger
    /// of the live environment a BlueZ transport is opened with.
    public var bluez: BlueZTransport.Configuration

    /// Creates a selector.
    ///
    /// - Parameters:
    ///   - makeSimulated: opens the virtual radio for `sim` and `sim:PATH`; `nil` (the default) for
    ///     ``simulation(seed:logLevel:logger:world:)`` with its defaults.
    ///   - bluez: the BlueZ configuration (bus, timeouts, logger); the specifier picks the adapter.
    public init(makeSimulated: SimulatedFactory? = nil, bluez: BlueZTransport.Configuration = .init()) {
        self.makeSimulated = makeSimulated ?? Self.simulation()
        self.bluez = bluez
    }

    /// Opens the transport a string names.
    ///
    /// - Parameter text: `sim`, `sim:PATH`, `bluez` or `bluez:hci1`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a string that names no transport;
    ///   ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when BlueZ, its adapter or the bus is missing (the
    ///   message says which and how to fix it), or when ``makeSimulated`` was set to `nil`; on `sim`, what
    ///   ``makeSimulated`` throws (``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a `sim:PATH` that is
    ///   no recording).
    public func open(_ text: String) async throws(AirlinkError) -> OpenedTransport {
        try await open(try TransportSpecifier(parsing: text))
    }

    /// Opens the transport that `AIRLINK_TRANSPORT` names, or `fallback` when it is unset.
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - fallback: the transport to use without the variable (the CLI's default is `sim`).
    /// - Throws: as the string form of `open`; ``/AirlinkCore/AirlinkError/Code/invalidArgument`` naming the
    ///   variable when it is set to something unparsable.
    public func open(environment: [String: String], fallback: TransportSpecifier) async throws(AirlinkError)
        -> OpenedTransport
    {
        try await open(try TransportSpecifier.fromEnvironment(environment) ?? fallback)
    }

    /// Opens the transport a specifier names.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` as the string form of `open`; on `sim`,
    ///   what ``makeSimulated`` throws.
    public func open(_ specifier: TransportSpecifier) async throws(AirlinkError) -> OpenedTransport {
        switch specifier {
        case .simulation(let scenario):
            guard let makeSimulated else {
                throw AirlinkError(
                    .transportUnavailable,
                    "this selector's virtual radio was turned off (makeSimulated is nil); use bluez, or set "
                        + "makeSimulated to TransportSelector.simulation()")
            }
            return try await makeSimulated(scenario)
        case .bluez(let adapter):
            var configuration = bluez
            configuration.adapter = adapter
            let transport = try await BlueZTransport.open(configuration)
            // The layers' tasks and the jobs run here prefer the D-Bus thread: a reply resumes them
            // without a thread hop (Docs/adr/0011-bluez-default-executor.md).
            let executor = transport.taskExecutor
            var environment = AirlinkEnvironment.live(logger: configuration.logger)
            environment.executor = executor
            return OpenedTransport(
                transport: transport, environment: environment, specifier: specifier,
                run: { job in try await withTaskExecutorPreference(executor) { try await job() } },
                close: { transport.close() })
        }
    }
}
