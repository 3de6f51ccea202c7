/// What can go wrong in Airlink's D-Bus layer. BlueZ code maps it to ``/AirlinkCore/AirlinkError`` with
/// `BlueZErrorMapping`; nothing here crashes on a peer's bad message.
package enum DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The peer answered with an error reply: its name (`org.bluez.Error.Failed`) and text.
    case remote(name: String, message: String)
    /// No reply arrived in time.
    case timeout(member: String, after: Duration)
    /// The bus connection is closed or was lost; the text says which.
    case disconnected(String)
    /// A reply or signal had another signature than the one expected.
    case unexpectedSignature(expected: String, actual: String, context: String)
    /// A value could not be decoded or encoded; the text says what and where.
    case malformed(String)
    /// A name, path or value cannot be sent (an invalid object path, a string with a NUL).
    case invalidArgument(String)
    /// The bus could not be reached: the address tried and libdbus's error.
    case connectionFailed(address: String, name: String, message: String)
    /// The caller's task was cancelled before the reply arrived.
    case cancelled

    /// One line for logs.
    package var description: String {
        switch self {
        case .remote(let name, let message): "\(name): \(message)"
        case .timeout(let member, let after): "no reply to \(member) within \(after.text)"
        case .disconnected(let why): "D-Bus connection lost: \(why)"
        case .unexpectedSignature(let expected, let actual, let context):
            "\(context): expected signature \"\(expected)\", got \"\(actual)\""
        case .malformed(let what): "malformed D-Bus data: \(what)"
        case .invalidArgument(let what): "invalid D-Bus argument: \(what)"
        case .connectionFailed(let address, let name, let message):
            "cannot connect to the D-Bus bus at \(address): \(name): \(message)"
        case .cancelled: "cancelled"
        }
    }
}
