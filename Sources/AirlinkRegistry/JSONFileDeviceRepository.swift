import AirlinkCore
import Foundation

/// A ``DeviceRepository`` in one JSON file, by default `$XDG_DATA_HOME/airlink/devices.json` (or
/// `~/.local/share/airlink/devices.json`): the registry's default store, readable and editable by
/// people.
///
/// - **Atomic writes.** Each change writes a new file of a fresh name, `devices.json.tmp-XXXXXX`
///   (created with `O_EXCL`: a symbolic link planted there is never followed), flushes it to the
///   disk, renames it over `devices.json` and flushes the directory: a crash at any moment leaves the
///   old file or the new one, never a torn one.
/// - **Regular files only.** A path that is a FIFO, a device, a directory or a symbolic link to one
///   is refused with ``/AirlinkCore/AirlinkError/Code/storageFailed`` before any byte is read; nothing there is
///   read, renamed or replaced, and opening never blocks.
/// - **Corruption.** A file that is not a registry file of a known form (bad JSON, a missing field,
///   an invalid device id, a device listed twice) is moved aside to `devices.json.corrupt-N` and
///   reported once as ``/AirlinkCore/AirlinkError/Code/corruptStore`` with both paths; the registry then starts
///   empty. It is never emptied silently. A file that cannot be read (permissions, I/O) is reported
///   as ``/AirlinkCore/AirlinkError/Code/storageFailed`` and left where it is.
/// - **Versions.** A file of a newer schema is refused with ``/AirlinkCore/AirlinkError/Code/unsupportedStoreVersion``
///   and never overwritten.
/// - **Concurrency.** An actor: safe from many tasks. Changes hold an exclusive `flock` on
///   `devices.json.lock`, so several repositories on one file, in one process or several, do not lose
///   each other's changes. Reads take no lock and see whole files only; they keep the file decoded
///   and read it again only when it was replaced.
public actor JSONFileDeviceRepository: DeviceRepository {
    /// The registry file's name in Airlink's data directory.
    public static let defaultFileName = "devices.json"

    /// The path of the JSON file the records are stored in.
    public nonisolated let path: String
    private nonisolated let lockPath: String

    /// The decoded file, with the file kept open so that its stamp stays unique.
    private struct Snapshot {
        var file: StoreFile.Descriptor?
        var stamp: StoreFile.Stamp?
        var records: [DeviceID: ConnectionRecord]
    }

    private var snapshot: Snapshot?
    private var lock: StoreFile.Descriptor?

    /// Creates a repository on the file at `path`; the file and its directory are created on the
    /// first change.
    ///
    /// - Parameter path: the registry file, such as `/var/lib/myapp/devices.json`.
    public init(path: String) {
        self.path = path
        lockPath = path + ".lock"
    }

    /// Creates a repository on the default file, `devices.json` in ``RegistryLocation/dataDirectory(environment:)``.
    ///
    /// - Parameter environment: the process environment to find the data directory from.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/storageFailed`` if neither `XDG_DATA_HOME` nor `HOME` is set.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AirlinkError) {
        self.init(path: try RegistryLocation.defaultPath(of: Self.defaultFileName, environment: environment))
    }

    // MARK: DeviceRepository

    /// Stores `record`, replacing any record of the same device.
    ///
    /// - Throws: what ``ConnectionRecord/validate()`` throws; a storage error.
    public func save(_ record: ConnectionRecord) throws(AirlinkError) {
        try record.validate()
        try change { records in records[record.id] = record }
    }

    /// The record of device `id`, or `nil`.
    ///
    /// - Throws: a storage error.
    public func record(for id: DeviceID) throws(AirlinkError) -> ConnectionRecord? {
        try current()[id]
    }

    /// Every record, the last connected first.
    ///
    /// - Throws: a storage error.
    public func all() throws(AirlinkError) -> [ConnectionRecord] {
        try current().values.sorted(by: ConnectionRecord.isMoreRecent)
    }

    /// The record of the device connected to last, or `nil`.
    ///
    /// - Throws: a storage error.
    public func lastConnected() throws(AirlinkError) -> ConnectionRecord? {
        try current().values.min(by: ConnectionRecord.isMoreRecent)
    }

    /// Removes the record of device `id`.
    ///
    /// - Returns: whether there was one.
    /// - Throws: a storage error.
    @discardableResult
    public func remove(_ id: DeviceID) throws(AirlinkError) -> Bool {
        guard try current()[id] != nil else { return false }
        var removed = false
        try change { records in removed = records.removeValue(forKey: id) != nil }
        return removed
    }

    /// Removes every record, leaving a file with none.
    ///
    /// - Throws: a storage error.
    public func removeAll() throws(AirlinkError) {
        try change { records in records.removeAll() }
    }

    /// Reads, changes and writes the record of `id` holding the file's lock.
    ///
    /// - Throws: what `change` throws; what ``ConnectionRecord/validate()`` throws; a storage error.
    public func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) throws(AirlinkError) -> ConnectionRecord {
        var result: ConnectionRecord?
        try self.change { records throws(AirlinkError) in
            let record = try change(records[id])
            try Self.checkUpdate(of: id, produced: record)
            try record.validate()
            records[id] = record
            result = record
        }
        return result!
    }

    // MARK: The file

    /// The records as the file now holds them, read again only if the file was replaced.
    private func current() throws(AirlinkError) -> [DeviceID: ConnectionRecord] {
        let stamp = try StoreFile.stamp(of: path)
        if let snapshot, snapshot.stamp == stamp { return snapshot.records }
        return try load()
    }

    /// Reads and decodes the file; moves a corrupt one aside and reports it.
    private func load() throws(AirlinkError) -> [DeviceID: ConnectionRecord] {
        guard let (file, stamp, bytes) = try StoreFile.read(path) else {
            snapshot = Snapshot(file: nil, stamp: nil, records: [:])
            return [:]
        }
        do throws(RegistryDocument.Failure) {
            let records = try RegistryDocument.decode(bytes)
            snapshot = Snapshot(file: file, stamp: stamp, records: records)
            return records
        } catch {
            switch error {
            case .newerVersion(let version):
                throw AirlinkError(
                    .unsupportedStoreVersion,
                    "the device registry \(path) has schema version \(version), written by a newer Airlink; "
                        + "this one reads up to version \(RegistryDocument.schemaVersion). Upgrade Airlink, or "
                        + "move the file away to start a new registry", context: path)
            case .corrupt(let reason):
                throw try moveAside(stamp: stamp, reason: reason)
            }
        }
    }

    /// Moves the corrupt file aside (if it is still the one read) and returns the error to report.
    private func moveAside(stamp: StoreFile.Stamp, reason: String) throws(AirlinkError) -> AirlinkError {
        let lock = try lockFile()
        let aside = try StoreFile.withLock(lock, path: lockPath) { () throws(AirlinkError) -> String? in
            guard try StoreFile.stamp(of: path) == stamp else { return nil }
            return try StoreFile.moveAside(path)
        }
        snapshot = nil
        let moved =
            aside.map {
                "It was moved to \($0) and the registry starts empty; restore records from it by hand or delete it"
            }
            ?? "Another writer has replaced it since"
        return AirlinkError(
            .corruptStore, "the device registry \(path) is corrupt: \(reason). \(moved)", cause: .other(reason),
            context: path)
    }

    /// Applies `body` to the current records and writes the result, holding the lock throughout.
    private func change(_ body: (inout [DeviceID: ConnectionRecord]) throws(AirlinkError) -> Void) throws(AirlinkError)
    {
        let lock = try lockFile()
        try StoreFile.withLock(lock, path: lockPath) { () throws(AirlinkError) in
            var records = try current()
            try body(&records)
            let bytes = try RegistryDocument.encode(records.values)
            let (file, stamp) = try StoreFile.replace(path, with: bytes)
            snapshot = Snapshot(file: file, stamp: stamp, records: records)
        }
    }

    private func lockFile() throws(AirlinkError) -> StoreFile.Descriptor {
        if let lock { return lock }
        let opened = try StoreFile.openLock(lockPath)
        lock = opened
        return opened
    }
}
