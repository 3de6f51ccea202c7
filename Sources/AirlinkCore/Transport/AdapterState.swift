/// The power state of a Bluetooth adapter.
public enum AdapterState: Sendable, Hashable, CustomStringConvertible {
    /// Powered on and usable.
    case poweredOn
    /// Powered off: scans and connections fail with ``AirlinkError/Code/adapterPoweredOff``.
    case poweredOff
    /// No usable adapter (none present, no Bluetooth stack, no kernel support); the text says which.
    case unavailable(String)

    /// `on`, `off` or `unavailable (why)`.
    public var description: String {
        switch self {
        case .poweredOn: "on"
        case .poweredOff: "off"
        case .unavailable(let why): "unavailable (\(why))"
        }
    }
}
