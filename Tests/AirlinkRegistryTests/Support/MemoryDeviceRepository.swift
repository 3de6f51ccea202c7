import AirlinkCore
import AirlinkRegistry

/// The smallest repository a user could write: the four required operations, the rest from the
/// protocol's defaults. Counts calls, so tests can see which path the registry took.
actor MemoryDeviceRepository: DeviceRepository {
    private var records: [DeviceID: ConnectionRecord] = [:]
    private(set) var saves = 0

    func save(_ record: ConnectionRecord) throws(AirlinkError) {
        try record.validate()
        records[record.id] = record
        saves += 1
    }

    func record(for id: DeviceID) -> ConnectionRecord? { records[id] }

    func all() -> [ConnectionRecord] { records.values.sorted(by: ConnectionRecord.isMoreRecent) }

    func remove(_ id: DeviceID) -> Bool { records.removeValue(forKey: id) != nil }
}
