/// How a value is written (Core Spec Vol 3, Part G, 4.9).
public enum WriteType: Sendable, Hashable, CustomStringConvertible {
    /// Write Request: the peer confirms (or refuses with an ATT error).
    case withResponse
    /// Write Command: no confirmation, at most MTU − 3 bytes.
    case withoutResponse

    /// `request` or `command`, as BlueZ names them.
    public var description: String {
        switch self {
        case .withResponse: "request"
        case .withoutResponse: "command"
        }
    }
}

/// Whether a characteristic sends its value changes, and how (Core Spec Vol 3, Part G, 3.3.3.3).
public enum NotificationMode: Sendable, Hashable, CustomStringConvertible {
    /// No value changes are sent.
    case disabled
    /// Notifications: unacknowledged.
    case notify
    /// Indications: each acknowledged by the central before the next is sent.
    case indicate

    /// The CCCD value that selects this mode.
    public var cccdValue: UInt16 {
        switch self {
        case .disabled: 0x0000
        case .notify: 0x0001
        case .indicate: 0x0002
        }
    }

    /// `disabled`, `notify` or `indicate`.
    public var description: String {
        switch self {
        case .disabled: "disabled"
        case .notify: "notify"
        case .indicate: "indicate"
        }
    }
}
