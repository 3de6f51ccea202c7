import Airlink
import AirlinkCore

/// `subscribe` ended because the link was lost for good: no reconnection strategy, or it gave up.
struct LinkLoss: Error, CustomStringConvertible {
    let device: DeviceID
    let received: Int
    /// The loss, or the last attempt's failure when the strategy gave up.
    let error: AirlinkError?
    /// Whether a reconnection strategy tried and gave up.
    let gaveUp: Bool

    var description: String {
        let values = "\(received) value\(received == 1 ? "" : "s")"
        let why = error.map { "\($0)" } ?? "the link was lost"
        if gaveUp { return "the link to \(device) was lost and reconnecting gave up after \(values): \(why)" }
        return "the link to \(device) was lost after \(values) (no --reconnect): \(why)"
    }

    /// Why the link ended, from the connection's events (already emitted when the values ended): the
    /// strategy's `gaveUp`, or the `lost` that no reconnection followed. Waits at most a second.
    static func reason(in events: EventStream<ConnectionEvent>, strategy: any ReconnectionStrategy) async
        -> (error: AirlinkError, gaveUp: Bool)?
    {
        let finalLoss = strategy is NoReconnectionStrategy
        return await withTaskGroup(of: (error: AirlinkError, gaveUp: Bool)?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .gaveUp(let error): return (error, true)
                    case .lost(let error) where finalLoss: return (error, false)
                    default: continue
                    }
                }
                return nil
            }
            group.addTask {
                // try?: the group is cancelled once the reason is found; a cancelled wait has nothing to add.
                try? await Task.sleep(for: .seconds(1))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
