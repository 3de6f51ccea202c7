import AirlinkCore
import Synchronization

/// The app's ``/AirlinkCore/PairingAgent`` with its passkeys checked: a passkey has six decimal digits, 0 to
/// 999999 (Core Spec Vol 3, Part H, 2.3.5.3). One out of range is not sent: the entry is cancelled (the peer
/// hears Passkey Entry Failed) and the pairing fails with ``/AirlinkCore/AirlinkError/Code/invalidArgument``
/// naming it, rather than with a confirm failure that would blame the user.
final class CheckedPairingAgent: Sendable {
    /// The largest passkey: six digits.
    static let maximumPasskey: UInt32 = 999_999

    private let rejected = Mutex<UInt32?>(nil)
    private let app: PairingAgent

    init(_ app: PairingAgent) { self.app = app }

    /// The agent to hand to the transport.
    var agent: PairingAgent {
        PairingAgent(
            enterPasskey: { [self] shown in
                guard let typed = app.enterPasskey(shown) else { return nil }
                guard typed <= Self.maximumPasskey else {
                    rejected.withLock { $0 = typed }
                    return nil
                }
                return typed
            },
            displayPasskey: app.displayPasskey, confirmNumber: app.confirmNumber)
    }

    /// The error to report for a pairing that ended with `error`: the rejected passkey's, if one was rejected.
    func explain(_ error: AirlinkError) -> AirlinkError {
        guard let passkey = rejected.withLock({ $0 }) else { return error }
        return AirlinkError(
            .invalidArgument,
            "the agent answered passkey \(passkey), which is not six digits (0 to 999999); the entry was cancelled, "
                + "so pairing failed with Passkey Entry Failed: answer the number shown on the device",
            cause: .underlying(error))
    }
}
