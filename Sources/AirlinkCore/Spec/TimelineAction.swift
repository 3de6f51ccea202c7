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
