/// A peripheral's script: actions at fixed virtual times after it was added to a simulation.
///
/// ```swift
/// Timeline {
///     At(.seconds(30), .setValue(BatteryLevel(5), of: .batteryLevel))
///     At(.seconds(60), .reset)
///     At(.seconds(90)) { context in context.log("firmware 2.0") }
/// }
/// ```
public struct Timeline: Sendable {
    /// The entries, in the order declared (a simulation runs them in time order, ties in this order).
    public var entries: [At]

    /// Declares a timeline.
    public init(@TimelineBuilder _ entries: () -> [At]) { self.entries = entries() }
}

/// One entry of a ``Timeline``: an action at a virtual time.
public struct At: Sendable {
    /// The time after the peripheral was added.
    public var time: Duration
    /// What happens then.
    public var action: TimelineAction

    /// An action at `time`.
    public init(_ time: Duration, _ action: TimelineAction) {
        self.time = time
        self.action = action
    }

    /// A closure run at `time` with the peripheral's context.
    public init(_ time: Duration, _ body: @escaping @Sendable (any PeripheralContext) -> Void) {
        self.init(time, .run(body))
    }
}

/// What a ``Timeline`` entry does.
public enum TimelineAction: Sendable {
    /// Runs a closure with the peripheral's context.
    case run(@Sendable (any PeripheralContext) -> Void)
    /// Stores bytes for a characteristic (notifying subscribers).
    case setBytes([UInt8], characteristic: BluetoothUUID, service: BluetoothUUID?)
    /// Replaces the services, as a firmware update does: subscribed centrals get a Service Changed indication.
    case changeDatabase([Service])
    /// Reboots the peripheral: links are lost (after the supervision timeout), values and state return
    /// to the spec's.
    case reset
    /// Moves the peripheral.
    case move(to: Position)
    /// Stops advertising.
    case stopAdvertising
    /// Starts advertising again.
    case startAdvertising

    /// Stores a typed value for a characteristic (notifying subscribers).
    public static func setValue(
        _ value: some GATTValue, of characteristic: BluetoothUUID, in service: BluetoothUUID? = nil
    ) -> TimelineAction {
        .setBytes(value.gattBytes, characteristic: characteristic, service: service)
    }

    /// Replaces the services with those the builder declares.
    public static func changeDatabase(@ServiceBuilder _ services: () -> [Service]) -> TimelineAction {
        .changeDatabase(services())
    }

    /// A short name for traces: `reset`, `setValue 2A19`.
    public var name: String {
        switch self {
        case .run: "run"
        case .setBytes(_, let characteristic, _): "setValue \(characteristic)"
        case .changeDatabase: "changeDatabase"
        case .reset: "reset"
        case .move(let position): "move to \(position)"
        case .stopAdvertising: "stopAdvertising"
        case .startAdvertising: "startAdvertising"
        }
    }
}

/// Builds the entries of a ``Timeline``.
@resultBuilder
public enum TimelineBuilder {
    /// An entry.
    public static func buildExpression(_ entry: At) -> [At] { [entry] }
    /// Entries in sequence.
    public static func buildBlock(_ parts: [At]...) -> [At] { parts.flatMap { $0 } }
    /// An optional entry.
    public static func buildOptional(_ part: [At]?) -> [At] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [At]) -> [At] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [At]) -> [At] { part }
    /// Entries of a loop.
    public static func buildArray(_ parts: [[At]]) -> [At] { parts.flatMap { $0 } }
}

/// Builds a list of ``Service``s.
@resultBuilder
public enum ServiceBuilder {
    /// A service.
    public static func buildExpression(_ service: Service) -> [Service] { [service] }
    /// Services in sequence.
    public static func buildBlock(_ parts: [Service]...) -> [Service] { parts.flatMap { $0 } }
    /// An optional service.
    public static func buildOptional(_ part: [Service]?) -> [Service] { part ?? [] }
    /// One branch of a condition.
    public static func buildEither(first part: [Service]) -> [Service] { part }
    /// The other branch of a condition.
    public static func buildEither(second part: [Service]) -> [Service] { part }
    /// Services of a loop.
    public static func buildArray(_ parts: [[Service]]) -> [Service] { parts.flatMap { $0 } }
}
