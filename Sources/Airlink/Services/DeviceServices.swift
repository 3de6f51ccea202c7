import AirlinkCore
import Synchronization

/// The services of one device, bound to the device rather than to a link: the same object, and
/// the ``DeviceService``s it hands out, keep working after reconnections.
///
/// Carries forward WLXBluetoothDevice's `WLXServicesManager`. Obtain it as
/// ``ConnectionManager/services``.
///
/// ```swift
/// let services = try await connection.services.discover()          // all services
/// let battery = connection.services.service(.battery)              // one per UUID
/// ```
public final class DeviceServices: Sendable {
    let client: GATTClient
    private let managers = Mutex<[BluetoothUUID: DeviceService]>([:])

    init(client: GATTClient) { self.client = client }

    /// The identifier of the device whose services these are.
    public var device: DeviceID { client.device }

    /// Discovers the device's services: all of them, or those with the given UUIDs.
    ///
    /// - Parameter uuids: the services of interest, or `nil` for all.
    /// - Returns: a manager for each service found, in handle order.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected``, ``/AirlinkCore/AirlinkError/Code/linkLost``,
    ///   ``/AirlinkCore/AirlinkError/Code/adapterPoweredOff``, ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for
    ///   an empty list.
    @discardableResult
    public func discover(_ uuids: [BluetoothUUID]? = nil) async throws(AirlinkError) -> [DeviceService] {
        if let uuids, uuids.isEmpty {
            throw AirlinkError(.invalidArgument, "the list of services to discover is empty; pass nil to discover all")
        }
        let found = try await client.perform("discover services") { turn throws(AirlinkError) in
            try await client.discoverServices(uuids, turn: turn)
        }
        // Each UUID once, in handle order (a set for the check: a database can hold thousands of services)
        var seen = Set<BluetoothUUID>()
        return found.filter { seen.insert($0.uuid).inserted }.map { service($0.uuid) }
    }

    /// The manager of the service with `uuid`: always the same object for the same UUID.
    ///
    /// No discovery happens here; the service is discovered when first used, and operations throw
    /// ``/AirlinkCore/AirlinkError/Code/serviceNotFound`` if the device has no such service.
    public func service(_ uuid: BluetoothUUID) -> DeviceService {
        managers.withLock { managers in
            if let manager = managers[uuid] { return manager }
            let manager = DeviceService(uuid: uuid, client: client)
            managers[uuid] = manager
            return manager
        }
    }

    /// The services discovered on the current link, in handle order.
    public var discoveredServices: [GATTService] { client.discoveredServices }

    /// The current link's parameters, or `nil` while disconnected.
    public var linkInfo: LinkInfo? { client.info }

    /// How the current link's database was obtained, when database caching is on: the cached one reused and why
    /// (``/AirlinkCore/DatabaseCacheTrust``), or `nil` when it is discovered (no cache, caching off, or a cache that
    /// could not be trusted: ``/AirlinkCore/ServicesEvent/databaseChanged(_:)`` said why). Settled once the link's
    /// first operation has run (the cache check takes the link's first turn).
    public var reusedDatabaseCache: DatabaseCacheTrust? { client.state.withLock { $0.reusedCache } }

    /// The negotiated ATT MTU, or `nil` while disconnected.
    public var mtu: Int? { client.info?.mtu }

    /// The longest value a write of `type` can carry: 512 with response, MTU − 3 without.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/notConnected`` while disconnected.
    public func maximumWriteLength(for type: WriteType) throws(AirlinkError) -> Int {
        try client.maximumWriteLength(for: type)
    }
}
