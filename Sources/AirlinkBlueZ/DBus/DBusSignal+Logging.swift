import Logging

extension DBusSignal {
    /// The signal's arguments when its signature is `expected`; otherwise `nil`, with the reason logged: a watch
    /// has no caller to throw to, so a malformed signal is ignored, as ``BlueZTransport`` ignores one.
    func arguments(expecting expected: String, loggingTo logger: Logger) -> [DBusValue]? {
        do {
            return try message.arguments(expecting: expected, context: member)
        } catch {
            logger.warning("ignoring a malformed BlueZ signal: \(error)")
            return nil
        }
    }
}
