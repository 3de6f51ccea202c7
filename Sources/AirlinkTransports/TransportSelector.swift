import AirlinkBlueZ
import AirlinkCore

/// Opens the transport a user named, so that the CLI and apps choose `sim` or `bluez:hci1` with one
/// string and layers above never import a concrete transport.
///
/// ```swift
/// let transport = try await TransportSelector().makeTransport(from: "bluez:hci1")
/// ```
///
/// The virtual radio is opened through ``makeSimulated``, a hook the simulation side fills in
/// (`TransportSelector(makeSimulated: { path in try VirtualRadio(...) })`); until it is set, `sim`
/// fails with a message saying so.
public struct TransportSelector: Sendable {
    /// Opens the virtual radio for `sim` (`nil`) or `sim:PATH` (the scenario's path).
    public typealias SimulatedFactory = @Sendable (_ scenario: String?) async throws(AirlinkError) -> any Transport

    /// The hook that opens the virtual radio; `nil` until the simulation side provides one.
    public var makeSimulated: SimulatedFactory?
    /// The BlueZ configuration, whose adapter the specifier overrides.
    public var bluez: BlueZTransport.Configuration

    /// Creates a selector.
    ///
    /// - Parameters:
    ///   - makeSimulated: opens the virtual radio for `sim` and `sim:PATH`.
    ///   - bluez: the BlueZ configuration (bus, timeouts, logger); the specifier picks the adapter.
    public init(makeSimulated: SimulatedFactory? = nil, bluez: BlueZTransport.Configuration = .init()) {
        self.makeSimulated = makeSimulated
        self.bluez = bluez
    }

    /// Opens the transport a string names.
    ///
    /// - Parameter text: `sim`, `sim:PATH`, `bluez` or `bluez:hci1`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for a string that names no transport;
    ///   ``/AirlinkCore/AirlinkError/Code/transportUnavailable`` when BlueZ, its adapter or the bus is missing (the
    ///   message says which and how to fix it), or when the virtual radio is not wired in.
    public func makeTransport(from text: String) async throws(AirlinkError) -> any Transport {
        try await makeTransport(try TransportSpecifier(parsing: text))
    }

    /// Opens the transport that `AIRLINK_TRANSPORT` names, or `fallback` when it is unset.
    ///
    /// - Parameters:
    ///   - environment: the process environment.
    ///   - fallback: the transport to use without the variable (the CLI's default is `sim`).
    public func makeTransport(environment: [String: String], fallback: TransportSpecifier) async throws(AirlinkError)
        -> any Transport
    {
        try await makeTransport(try TransportSpecifier.fromEnvironment(environment) ?? fallback)
    }

    /// Opens the transport a specifier names.
    public func makeTransport(_ specifier: TransportSpecifier) async throws(AirlinkError) -> any Transport {
        switch specifier {
        case .simulation(let scenario):
            guard let makeSimulated else {
                throw AirlinkError(
                    .transportUnavailable,
                    "this build has no virtual radio wired into TransportSelector (makeSimulated is nil); "
                        + "use bluez, or pass makeSimulated")
            }
            return try await makeSimulated(scenario)
        case .bluez(let adapter):
            var configuration = bluez
            configuration.adapter = adapter
            return try await BlueZTransport.open(configuration)
        }
    }
}
