import AirlinkCore

extension AttributeDatabase {
    /// The table's GATT Database Hash (Core Spec Vol 3, Part G, 7.3), computed from its attributes as they stand.
    ///
    /// Writes to characteristic values and descriptors' values (a CCCD, a user description) leave it unchanged;
    /// a table laid out differently (a handle moved, a service added, a characteristic's properties changed)
    /// hashes differently. The Database Hash characteristic, when the table has one, serves it as built
    /// (``/AirlinkCore/GATTDatabaseHash/characteristicValue``); a firmware with a stale hash serves another.
    public var databaseHash: GATTDatabaseHash {
        GATTDatabaseHash(
            attributes: attributes.lazy.map {
                GATTDatabaseHash.Attribute(handle: $0.handle, type: $0.type, value: $0.value)
            })
    }
}
