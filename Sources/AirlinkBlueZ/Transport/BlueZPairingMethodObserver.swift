import AirlinkCore
import Synchronization

/// How a pairing through BlueZ went, as far as the agent's calls tell: bluetoothd says neither the method nor the
/// link's level on D-Bus, but which question it asked the agent gives the method away.
///
/// `RequestPasskey` (the app's user types what the peripheral shows) is passkey entry with the peripheral
/// displaying, `DisplayPasskey` passkey entry with the app displaying, `RequestConfirmation` numeric comparison; no
/// question at all is Just Works. Only questions the agent answered count.
final class BlueZPairingMethodObserver: Sendable {
    private let method = Mutex<PairingMethod?>(nil)

    /// Notes bluetoothd's call `member` to the agent, answered with `reply`.
    func note(_ member: String?, answered reply: DBusMethodReply) {
        guard case .values = reply else { return }
        let asked: PairingMethod? =
            switch member {
            case "RequestPasskey": .passkeyEntry(.peripheralDisplays)
            case "DisplayPasskey": .passkeyEntry(.centralDisplays)
            case "RequestConfirmation": .numericComparison
            default: nil
            }
        guard let asked else { return }
        method.withLock { $0 = asked }
    }

    /// The result of the pairing that just succeeded, `bonded` as BlueZ's `Bonded` says.
    ///
    /// The level is the least the method proves: Just Works gives an unauthenticated key (level 2); passkey entry
    /// an authenticated one, reported as level 3 because BlueZ does not say whether it was LE Secure Connections;
    /// numeric comparison exists only in Secure Connections (level 4). The key size is not on D-Bus either: 16.
    func result(bonded: Bool) -> PairingResult {
        let method = method.withLock { $0 } ?? .justWorks
        return PairingResult(method: method, level: Self.level(of: method), keySize: 16, bonded: bonded)
    }

    /// The least security level a pairing by `method` proves, for a pairing BlueZ ran (in either role): BlueZ says
    /// neither the level nor whether LE Secure Connections was used.
    static func level(of method: PairingMethod) -> LinkSecurityLevel {
        switch method {
        case .justWorks: .encrypted
        case .numericComparison: .authenticatedSecureConnections
        case .passkeyEntry, .outOfBand: .authenticated
        }
    }
}
