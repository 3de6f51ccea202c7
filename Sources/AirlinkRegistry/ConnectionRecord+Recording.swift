import AirlinkCore

extension ConnectionRecord {
    /// What a new connection to a device tells the registry.
    public struct Connection: Hashable, Sendable {
        /// The device's name, if known on this connection.
        public var name: String?
        /// The services discovered on this connection; empty if none was discovered.
        public var services: [BluetoothUUID]
        /// The GATT Database Hash read on this connection, if any.
        public var databaseHash: [UInt8]?
        /// When the connection was established.
        public var time: RecordTimestamp

        /// Describes a connection.
        ///
        /// - Parameters:
        ///   - name: the device's name, if known.
        ///   - services: the services discovered, if any.
        ///   - databaseHash: the GATT Database Hash read, if any.
        ///   - time: when the connection was established.
        public init(
            name: String? = nil, services: [BluetoothUUID] = [], databaseHash: [UInt8]? = nil, at time: RecordTimestamp
        ) {
            self.name = name
            self.services = services
            self.databaseHash = databaseHash
            self.time = time
        }
    }

    /// The record of a device's first connection.
    ///
    /// - Parameters:
    ///   - id: the device.
    ///   - connection: what the connection told.
    public init(id: DeviceID, firstConnection connection: Connection) {
        self.init(
            id: id, name: connection.name, services: connection.services, firstConnected: connection.time,
            databaseHash: connection.databaseHash)
    }

    /// The record after one more connection: the rules a registry applies.
    ///
    /// - The count grows by one, up to ``maximumConnectionCount``.
    /// - The first connection's time is kept; the last becomes the later of the stored one and the
    ///   new one (a late report of an earlier connection does not make the device look newer). A
    ///   time before the first becomes the first.
    /// - A name replaces the stored one (sanitized: ``sanitizedName(_:)``); no name keeps it.
    /// - A database hash that differs from the stored one means the layout changed: the new
    ///   services replace the stored ones, even if none was discovered, and the hash is stored.
    ///   Otherwise discovered services replace the stored ones and none keeps them. A different hash also
    ///   drops the cached ``database``: it describes the old layout.
    ///
    /// - Parameter connection: what the new connection told.
    /// - Returns: the updated record.
    public func recording(_ connection: Connection) -> ConnectionRecord {
        var record = self
        record.connectionCount = min(connectionCount, Self.maximumConnectionCount - 1) + 1
        record.firstConnected = min(firstConnected, connection.time)
        record.lastConnected = max(lastConnected, connection.time)
        if let name = connection.name { record.name = Self.sanitizedName(name) }
        if let hash = connection.databaseHash, hash != databaseHash {
            record.databaseHash = hash
            record.services = connection.services
            record.database = nil
        } else if !connection.services.isEmpty {
            record.services = connection.services
        }
        return record
    }
}
