import Airlink
import AirlinkCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The warning a connecting command prints on standard error when the layers find BlueZ's own copy of the device's
/// database stale (`stackCacheStale`): what was read may be the old value, and the layers' log says so only with
/// `--verbose`, so the command says it itself, with the way out.
enum StaleStackCacheWarning {
    /// `warning: BlueZ's cache of C0:FF:EE:00:00:01's services is stale (...)`, one line.
    static func text(_ device: DeviceID, _ reason: StackCacheStaleness) -> String {
        let why =
            switch reason {
            case .hashMismatch: "its Database Hash changed, yet BlueZ still serves the database it cached"
            case .outOfSync: "it answered Database Out Of Sync to a request on handles BlueZ keeps"
            }
        return "warning: BlueZ's cache of \(device)'s services is stale (\(reason): \(why)); values read through it "
            + "may be old: `airlink refresh-cache \(device)` drops it"
    }

    /// Prints the warning for each `stackCacheStale` event of `manager` until its event streams end (its shutdown).
    static func watch(_ manager: DeviceManager) -> Task<Void, Never> {
        let events = manager.events { event in
            if case .services(_, .stackCacheStale) = event { true } else { false }
        }
        return Task {
            for await case .services(let device, .stackCacheStale(let reason)) in events {
                let line = text(device, reason) + "\n"
                _ = line.withCString { write(2, $0, strlen($0)) }
            }
        }
    }
}
