import AirlinkCore

/// Which ATT requests an injected fault applies to.
public enum ATTOperation: Sendable, Hashable, CustomStringConvertible {
    /// Every request.
    case any
    /// Reads (Read and Read Blob Requests) of a characteristic or descriptor, or of any when `nil`.
    case read(BluetoothUUID?)
    /// Writes (Write Requests and Commands, Prepare Write Requests) of a characteristic or descriptor,
    /// or of any when `nil`.
    case write(BluetoothUUID?)
    /// Requests with this opcode.
    case opcode(ATTOpcode)

    /// `any`, `read 2A19`, `write *`, `ATT_FIND_INFORMATION_REQ`.
    public var description: String {
        switch self {
        case .any: "any"
        case .read(let uuid): "read \(uuid.map(\.description) ?? "*")"
        case .write(let uuid): "write \(uuid.map(\.description) ?? "*")"
        case .opcode(let opcode): opcode.description
        }
    }
}
