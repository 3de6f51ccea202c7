import Airlink
import AirlinkBlueZ
import AirlinkCore
import AirlinkRegistry

/// Scans until a device advertises, for the commands that need the stack to have heard it: BlueZ lists no device
/// it forgot (`airlink forget`, `refresh-cache`) or lost with a restart of bluetoothd until a scan hears it again,
/// and refuses to connect to one it does not list.
enum DeviceSearch {
    /// Scans until a device that `matches` advertises, within `limit`.
    ///
    /// - Returns: the device heard.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` with `notHeard` as the message when no such device
    ///   is heard within `limit`; what starting the discovery throws (the adapter powered off, a limit that is not
    ///   positive).
    static func find(
        with manager: DeviceManager, within limit: Duration, notHeard: String,
        matching matches: (DeviceID) -> Bool
    ) async throws(AirlinkError) -> DeviceID {
        let discovery = try await manager.discover(timeout: limit)
        for await event in discovery.events {
            switch event {
            case .discovered(let found) where matches(found.id):
                await discovery.stop()
                return found.id
            case .stopped:
                throw AirlinkError(.deviceNotFound, notHeard)
            default:
                continue
            }
        }
        // The events end only after .stopped; a stream ended otherwise heard nothing either.
        throw AirlinkError(.deviceNotFound, notHeard)
    }

    /// Scans for the device `query` names when the session is on BlueZ and BlueZ lists no device at its address,
    /// so that a device BlueZ forgot is connected to as one it remembers; does nothing on `sim`, for an opaque
    /// identifier, or when BlueZ lists the address.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/deviceNotFound`` when nothing at the address is heard within `limit`,
    ///   with `advice` (how to give the scan more time) if the command has any.
    static func findForgotten(
        _ query: DeviceQuery, on session: Session, within limit: Duration, advice: String? = nil
    ) async throws {
        guard !session.isSimulated, let bluez = session.transport as? BlueZTransport, let address = query.id.address,
            !bluez.knownDevices.contains(where: { $0.address == address })
        else { return }
        let (transport, environment) = (session.transport, session.environment)
        try await session.run {
            let manager = DeviceManager(transport: transport, environment: environment)
            defer { manager.shutdown() }
            _ = try await find(
                with: manager, within: limit,
                notHeard: "BlueZ does not know \(query.id) and it was not heard within \(limit.text) of scanning; "
                    + "make it advertise" + (advice.map { ", or \($0)" } ?? "")
            ) { $0.address == address }
        }
    }
}
