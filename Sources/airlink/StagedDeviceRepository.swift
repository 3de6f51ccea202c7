import AirlinkCore
import AirlinkRegistry

/// A registry's records held in memory while a simulation runs, written back to the real repository
/// after it.
///
/// A repository that does its I/O on threads of its own (SQLite through GRDB) would resume the
/// simulation's tasks from outside the simulation, which the kernel reports as a stall; so on `sim`
/// the CLI loads the records before the run, lets the layers save into this stage, and flushes
/// what changed afterwards. On BlueZ the layers use the repository directly.
actor StagedDeviceRepository: DeviceRepository {
    private var records: [DeviceID: ConnectionRecord]
    private var saved: [DeviceID] = []
    private var removed: [DeviceID] = []

    /// Stages the records of a repository.
    init(records: [ConnectionRecord]) {
        self.records = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func save(_ record: ConnectionRecord) throws(AirlinkError) {
        records[record.id] = record
        removed.removeAll { $0 == record.id }
        if !saved.contains(record.id) { saved.append(record.id) }
    }

    func record(for id: DeviceID) throws(AirlinkError) -> ConnectionRecord? { records[id] }

    func all() throws(AirlinkError) -> [ConnectionRecord] {
        records.values.sorted(by: ConnectionRecord.isMoreRecent)
    }

    func lastConnected() throws(AirlinkError) -> ConnectionRecord? { try all().first }

    @discardableResult
    func remove(_ id: DeviceID) throws(AirlinkError) -> Bool {
        guard records.removeValue(forKey: id) != nil else { return false }
        saved.removeAll { $0 == id }
        removed.append(id)
        return true
    }

    /// Writes what changed into `repository`, in the order it changed.
    func flush(into repository: any DeviceRepository) async throws(AirlinkError) {
        for id in removed { try await repository.remove(id) }
        for id in saved {
            if let record = records[id] { try await repository.save(record) }
        }
        saved.removeAll()
        removed.removeAll()
    }
}
