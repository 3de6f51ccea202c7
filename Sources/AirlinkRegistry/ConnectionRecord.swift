import AirlinkCore

/// What a registry remembers of one device the app has connected to.
///
/// Enough to connect to it again without discovering it (its ``id``, with the address type), to show
/// it in a list (``name``, ``lastConnected``), and to reuse a discovered GATT layout until the
/// device's firmware changes it (``services`` with ``databaseHash``).
///
/// ```json
/// { "id": "C0:FF:EE:00:00:01/random", "name": "Thermostat", "services": ["180F", "180A"],
///   "firstConnected": 1767225600, "lastConnected": 1767312000.5, "connectionCount": 12,
///   "databaseHash": "8f1c0d2e9a7b6c5d4e3f2a1b0c9d8e7f" }
/// ```
public struct ConnectionRecord: Hashable, Sendable, Identifiable {
    /// The device: its address and address type, or a stack's opaque identifier.
    public var id: DeviceID
    /// The name the device gave (GAP Device Name or advertised local name), if any.
    public var name: String?
    /// The services seen on the device, in discovery order; empty when none was discovered.
    public var services: [BluetoothUUID]
    /// When the app first connected to the device.
    public var firstConnected: RecordTimestamp
    /// When the app last connected to the device.
    public var lastConnected: RecordTimestamp
    /// How many connections were recorded; at least 1.
    public var connectionCount: Int
    /// The device's GATT Database Hash (Core Spec Vol 3, Part G, 7.3), or another fingerprint of its
    /// layout, 1 to 64 bytes; `nil` if unknown. When it changes, ``services`` is out of date.
    public var databaseHash: [UInt8]?
    /// The part of the device's GATT database the layers discovered, taken while the device served
    /// ``databaseHash`` (or no hash, when that is `nil`); `nil` when nothing is cached. Records written before
    /// the cache existed have none.
    public var database: CachedGATTDatabase?
    /// The bond the app's pairing left with the device, `nil` when none (records written before bonds were
    /// kept have none). Dropped when the device loses it, and with the record by `forget`.
    public var bond: BondRecord?

    /// Creates a record.
    ///
    /// - Parameters:
    ///   - id: the device.
    ///   - name: the device's name, if known; kept as ``sanitizedName(_:)`` makes it.
    ///   - services: the services seen on the device.
    ///   - firstConnected: the first connection's time.
    ///   - lastConnected: the last connection's time; defaults to `firstConnected`.
    ///   - connectionCount: how many connections were made; defaults to 1.
    ///   - databaseHash: the GATT Database Hash, if known.
    ///   - database: the discovered database cached for the device, if any.
    ///   - bond: the bond with the device, if any.
    public init(
        id: DeviceID,
        name: String? = nil,
        services: [BluetoothUUID] = [],
        firstConnected: RecordTimestamp,
        lastConnected: RecordTimestamp? = nil,
        connectionCount: Int = 1,
        databaseHash: [UInt8]? = nil,
        database: CachedGATTDatabase? = nil,
        bond: BondRecord? = nil
    ) {
        self.id = id
        self.name = name.map(Self.sanitizedName)
        self.services = services
        self.firstConnected = firstConnected
        self.lastConnected = lastConnected ?? firstConnected
        self.connectionCount = connectionCount
        self.databaseHash = databaseHash
        self.database = database
        self.bond = bond
    }

    /// Whether ``services`` still describes a device that now reports `databaseHash`: both hashes
    /// are known and equal.
    ///
    /// - Parameter databaseHash: the hash the device reports now.
    public func hasCurrentLayout(databaseHash: [UInt8]) -> Bool { self.databaseHash == databaseHash }

    /// The order of ``DeviceRepository/all()``: the last connected first; ties by ``id``'s written
    /// form, byte by byte (as SQLite's `BINARY` collation orders text).
    ///
    /// - Returns: whether `lhs` comes before `rhs`.
    public static func isMoreRecent(_ lhs: ConnectionRecord, than rhs: ConnectionRecord) -> Bool {
        if lhs.lastConnected != rhs.lastConnected { return lhs.lastConnected > rhs.lastConnected }
        return lhs.id.description.utf8.lexicographicallyPrecedes(rhs.id.description.utf8)
    }
}
