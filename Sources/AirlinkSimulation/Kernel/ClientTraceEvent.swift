import AirlinkCore

/// What a scenario's client did and what came of it (category `client`), typed: the test kit's
/// scenario runner records these, oracles and tests match on them.
///
/// A target is what the operation named: a characteristic's UUID, or an inspected value's
/// identifier; a value is the text of what was read, written or notified, in the declared type.
public enum ClientTraceEvent: Sendable, Hashable {
    /// `connect C0:FF:EE:00:00:01 ok`.
    case connected(DeviceID)
    /// `connect C0:FF:EE:00:00:01 failed: timeout`.
    case connectFailed(DeviceID, AirlinkError.Code)
    /// `subscribe 2A19 ok notify`.
    case subscribed(target: String, mode: NotificationMode)
    /// `subscribe 2A19 failed: linkLost`.
    case subscribeFailed(target: String, AirlinkError.Code)
    /// `disconnect C0:FF:EE:00:00:01 ok`.
    case disconnected(DeviceID)
    /// `unsubscribe 2A19 ok`.
    case unsubscribed(target: String)
    /// `unsubscribe 2A19 failed: linkLost`.
    case unsubscribeFailed(target: String, AirlinkError.Code)
    /// `forget C0:FF:EE:00:00:01 ok` (`ok, not known` when the registry had no record of it).
    case forgot(DeviceID, known: Bool)
    /// `forget C0:FF:EE:00:00:01 failed: ...`.
    case forgetFailed(DeviceID, AirlinkError.Code)
    /// `pair C0:FF:EE:00:00:41 ok: level 4 (authenticated Secure Connections) keySize=16 bonded`.
    case paired(DeviceID, PairingResult)
    /// `pair C0:FF:EE:00:00:41 failed: pairingFailed Confirm Value Failed (0x04)`.
    case pairFailed(DeviceID, AirlinkError.Code, detail: String)
    /// `read 2A19 = 87`.
    case read(target: String, value: String)
    /// `write 2A19 = 87 ok`.
    case wrote(target: String, value: String)
    /// `read 2A19 failed: linkLost`, `write pump failed: attribute`.
    case failed(Operation, target: String, AirlinkError.Code)
    /// `notified 2A19 = 86`, with ` missed=3` when the observer lost values before this one.
    case notified(target: String, value: String, missed: Int)
    /// `inspector C0:FF:EE:00:00:01 has pump (bool), level (uint8)`: the values a connected
    /// inspector lists, in order.
    case inspectorListed(DeviceID, values: [InspectedValueListing])
    /// `inspector C0:FF:EE:00:00:01 listing failed: timeout`.
    case inspectorListingFailed(DeviceID, AirlinkError.Code)
    /// `follow C0:FF:EE:00:00:01 ok`: the inspector's notifying values are followed.
    case followed(DeviceID)
    /// `follow C0:FF:EE:00:00:01 failed: linkLost`.
    case followFailed(DeviceID, AirlinkError.Code)
    /// `app2 connect C0:FF:EE:00:00:01 ok`: what a further app of the scenario did (the first app's
    /// lines carry no prefix). Apps are numbered from 1.
    indirect case app(Int, ClientTraceEvent)

    /// A client operation that can fail on a target.
    public enum Operation: String, Sendable, Hashable {
        /// A read.
        case read
        /// A write.
        case write
    }

    /// One value an inspector lists: its identifier and the name of its type.
    public struct InspectedValueListing: Sendable, Hashable {
        /// The value's identifier (`pump`).
        public var identifier: String
        /// Its type's name (`bool`).
        public var type: String

        /// Creates a listing.
        public init(identifier: String, type: String) {
            self.identifier = identifier
            self.type = type
        }
    }

    /// The line's text after its category.
    public var text: String {
        switch self {
        case .app(let number, let event): "app\(number) \(event.text)"
        case .connected(let device): "connect \(device) ok"
        case .connectFailed(let device, let code): "connect \(device) failed: \(code)"
        case .subscribed(let target, let mode): "subscribe \(target) ok \(mode)"
        case .subscribeFailed(let target, let code): "subscribe \(target) failed: \(code)"
        case .disconnected(let device): "disconnect \(device) ok"
        case .unsubscribed(let target): "unsubscribe \(target) ok"
        case .unsubscribeFailed(let target, let code): "unsubscribe \(target) failed: \(code)"
        case .forgot(let device, let known): "forget \(device) ok" + (known ? "" : ", not known")
        case .forgetFailed(let device, let code): "forget \(device) failed: \(code)"
        case .paired(let device, let result): "pair \(device) ok: \(result)"
        case .pairFailed(let device, let code, let detail):
            "pair \(device) failed: \(code)" + (detail.isEmpty ? "" : " \(detail)")
        case .read(let target, let value): "read \(target) = \(value)"
        case .wrote(let target, let value): "write \(target) = \(value) ok"
        case .failed(let operation, let target, let code): "\(operation.rawValue) \(target) failed: \(code)"
        case .notified(let target, let value, let missed):
            "notified \(target) = \(value)" + (missed > 0 ? " missed=\(missed)" : "")
        case .inspectorListed(let device, let values):
            "inspector \(device) has " + values.map { "\($0.identifier) (\($0.type))" }.joined(separator: ", ")
        case .inspectorListingFailed(let device, let code): "inspector \(device) listing failed: \(code)"
        case .followed(let device): "follow \(device) ok"
        case .followFailed(let device, let code): "follow \(device) failed: \(code)"
        }
    }
}
