import AirlinkCore
import AirlinkRegistry

/// A registry's records held in memory while a simulation runs, with the changes made to them
/// replayed on the real repository after it.
///
/// A repository that does its I/O on threads of its own (SQLite through GRDB) would resume the
/// simulation's tasks from outside the simulation, which the kernel reports as a stall; so on `sim`
/// the CLI loads the records before the run, lets the layers change this stage, and replays the
/// changes afterwards. An ``update(_:_:)`` is replayed as the same change on the record the
/// repository holds then (one more connection counted on what another process stored meanwhile),
/// never as the copy staged here: two invocations on one device count two connections. On BlueZ
/// the layers use the repository directly.
actor StagedDeviceRepository: DeviceRepository {
    /// One change, in the form it is replayed.
    private enum Change {
        case save(ConnectionRecord)
        case update(DeviceID, @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord)
        case remove(DeviceID)
        case removeAll
    }

    private var records: [DeviceID: ConnectionRecord]
    private var changes: [Change] = []

    /// Stages the records of a repository.
    init(records: [ConnectionRecord]) {
        self.records = Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func save(_ record: ConnectionRecord) throws(AirlinkError) {
        try record.validate()
        records[record.id] = record
        changes.append(.save(record))
    }

    func record(for id: DeviceID) throws(AirlinkError) -> ConnectionRecord? { records[id] }

    func all() throws(AirlinkError) -> [ConnectionRecord] {
        records.values.sorted(by: ConnectionRecord.isMoreRecent)
    }

    func lastConnected() throws(AirlinkError) -> ConnectionRecord? { try all().first }

    @discardableResult
    func remove(_ id: DeviceID) throws(AirlinkError) -> Bool {
        guard records.removeValue(forKey: id) != nil else { return false }
        changes.append(.remove(id))
        return true
    }

    func removeAll() throws(AirlinkError) {
        records.removeAll()
        changes.append(.removeAll)
    }

    func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) throws(AirlinkError) -> ConnectionRecord {
        let record = try change(records[id])
        try Self.checkUpdate(of: id, produced: record)
        try record.validate()
        records[id] = record
        changes.append(.update(id, change))
        return record
    }

    /// Replays the changes on `repository`, in the order they were made, each an ``update(_:_:)``
    /// of the repository's current record where it was one here.
    func flush(into repository: any DeviceRepository) async throws(AirlinkError) {
        let pending = changes
        changes.removeAll()
        for change in pending {
            switch change {
            case .save(let record): try await repository.save(record)
            case .update(let id, let change): _ = try await repository.update(id, change)
            case .remove(let id): try await repository.remove(id)
            case .removeAll: try await repository.removeAll()
            }
        }
    }
}
