import AirlinkCore

/// What centrals did to a scenario's inspector peripheral (category `inspector`), typed: the test
/// kit records these as its inspectors see them. `inspector` is the inspector's declared name.
public enum InspectorTraceEvent: Sendable, Hashable {
    /// `"Pump" central C0:FF:EE:00:00:AA connected`.
    case centralConnected(inspector: String, central: DeviceID)
    /// `"Pump" central C0:FF:EE:00:00:AA left: Remote User Terminated Connection (0x13)`.
    case centralLeft(inspector: String, central: DeviceID, reason: DisconnectionReason)
    /// `"Pump" central C0:FF:EE:00:00:AA subscription to level: notify`; `value` is the inspected
    /// value's identifier, or the characteristic's UUID when it has none.
    case subscriptionChanged(inspector: String, central: DeviceID, value: String, mode: NotificationMode)
    /// `"Pump" central wrote pump = true`: an accepted write, its value as text.
    case written(inspector: String, identifier: String, value: String)
    /// `"Pump" refused a write to level: …`: a write the inspector refused, with its ATT error.
    case writeRefused(inspector: String, identifier: String, error: ATTError)

    /// The line's text after its category.
    public var text: String {
        switch self {
        case .centralConnected(let inspector, let central): "\"\(inspector)\" central \(central) connected"
        case .centralLeft(let inspector, let central, let reason): "\"\(inspector)\" central \(central) left: \(reason)"
        case .subscriptionChanged(let inspector, let central, let value, let mode):
            "\"\(inspector)\" central \(central) subscription to \(value): \(mode)"
        case .written(let inspector, let identifier, let value):
            "\"\(inspector)\" central wrote \(identifier) = \(value)"
        case .writeRefused(let inspector, let identifier, let error):
            "\"\(inspector)\" refused a write to \(identifier): \(error)"
        }
    }
}
