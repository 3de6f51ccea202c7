import AirlinkCore

/// A ``DeviceRepository`` that keeps its records in memory, for tests and simulations.
///
/// Nothing survives the process. Scenario runs use it to check that the registry agrees with the
/// connections the run made; an app's own tests can hand it to a `DeviceManager` the same way.
public actor InMemoryDeviceRepository: DeviceRepository {
    private var records: [DeviceID: ConnectionRecord] = [:]

    /// Creates an empty repository.
    public init() {}

    /// Saves (inserts or replaces) a record.
    ///
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/invalidDeviceID`` or
    ///   ``/AirlinkCore/AirlinkError/Code/invalidArgument`` for an invalid record, as every repository does.
    public func save(_ record: ConnectionRecord) throws(AirlinkError) {
        try record.validate()
        records[record.id] = record
    }

    /// The record of a device, if any.
    public func record(for id: DeviceID) -> ConnectionRecord? { records[id] }

    /// Every record, the most recently connected first.
    public func all() -> [ConnectionRecord] { records.values.sorted(by: ConnectionRecord.isMoreRecent) }

    /// Removes a device's record; returns whether there was one.
    public func remove(_ id: DeviceID) -> Bool { records.removeValue(forKey: id) != nil }
}
