import AirlinkCore
import AirlinkRegistry
import Foundation
import GRDB

/// A ``/AirlinkRegistry/DeviceRepository`` in an SQLite database, by default `$XDG_DATA_HOME/airlink/devices.sqlite`
/// (or `~/.local/share/airlink/devices.sqlite`): for apps that know many devices, or that share the
/// registry between processes.
///
/// - **Schema.** Created and upgraded by migrations (GRDB's `DatabaseMigrator`); a database that a
///   newer Airlink migrated is refused with ``/AirlinkCore/AirlinkError/Code/unsupportedStoreVersion``, untouched.
///   One row per device, the id its primary key, with an index on the last connection: a lookup
///   or a save stays well under a millisecond among 10,000 devices (RegistryBenchmarks).
/// - **Durability.** Write-ahead log, `synchronous = FULL`: a save that returned survives a crash
///   of the process or of the machine; a crash mid-save loses that save only.
/// - **Concurrency.** A `DatabasePool`: reads run side by side with each other and with the one
///   writer; ``update(_:_:)`` is one `IMMEDIATE` transaction, so registries in several processes
///   sharing the file do not lose each other's changes (a writer waits up to 5 s for another).
/// - **Regular files only.** A path that is a FIFO, a device, a directory or a symbolic link to one
///   is refused with ``/AirlinkCore/AirlinkError/Code/storageFailed``, untouched.
/// - **Corruption.** A file that is not an SQLite database is moved aside to
///   `devices.sqlite.corrupt-N` (with its `-wal` and `-shm`) and reported as
///   ``/AirlinkCore/AirlinkError/Code/corruptStore`` when the repository opens. A row that breaks the record's
///   rules is reported as ``/AirlinkCore/AirlinkError/Code/corruptStore`` naming the row, and left in place.
public final class SQLiteDeviceRepository: DeviceRepository {
    /// The database file's name in Airlink's data directory.
    public static let defaultFileName = "devices.sqlite"
    /// How long a writer waits for another process's write to finish before failing.
    public static let busyTimeout: TimeInterval = 5

    /// The path of the SQLite database file the records are stored in.
    public let path: String
    /// The files SQLite keeps, as suffixes of ``path``: the database, its write-ahead log, its
    /// shared-memory index and its rollback journal.
    static let fileSuffixes = ["", "-wal", "-shm", "-journal"]
    /// The connections: one writer, several readers.
    let pool: DatabasePool

    /// Opens (creating if needed) the database at `path` and brings its schema up to date.
    ///
    /// - Parameter path: the database file, such as `/var/lib/myapp/devices.sqlite`.
    /// - Throws: ``/AirlinkCore/AirlinkError/Code/unsupportedStoreVersion`` for a database of a newer schema;
    ///   ``/AirlinkCore/AirlinkError/Code/corruptStore`` for a file that is not a database (moved aside);
    ///   ``/AirlinkCore/AirlinkError/Code/storageFailed`` if the file cannot be created or opened, or if it (or its
    ///   `-wal`, `-shm` or `-journal`) is not a regular file: a FIFO, a device or a directory is
    ///   refused before SQLite opens anything, and never moved aside.
    public init(path: String) throws(AirlinkError) {
        self.path = path
        for suffix in Self.fileSuffixes { try StoreFile.requireRegularOrMissing(path + suffix) }
        try StoreFile.createDirectory(for: path)
        var configuration = Configuration()
        configuration.label = "airlink.registry"
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        do {
            pool = try Self.openPool(path: path, configuration: configuration)
            let unknown = try pool.read { db in try RegistrySchema.unknownMigrations(in: db) }
            guard unknown.isEmpty else {
                throw AirlinkError(
                    .unsupportedStoreVersion,
                    "the device registry \(path) was migrated by a newer Airlink (migrations "
                        + "\(unknown.joined(separator: ", ")) are unknown to this one); upgrade Airlink, or move "
                        + "the database away to start a new registry", context: path)
            }
            try RegistrySchema.migrate(pool)
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            let aside = try StoreFile.moveAside(path, companionSuffixes: ["-wal", "-shm"])
            throw AirlinkError(
                .corruptStore,
                "the device registry \(path) is not a usable SQLite database (\(error.message ?? "\(error)")). "
                    + "It was moved to \(aside) and the registry starts empty; inspect or delete it",
                cause: .other("\(error)"), context: path)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Opens the pool, trying again while another process switches a new database to WAL.
    ///
    /// Opening sets `journal_mode = WAL`, which needs the database alone; when another connection is
    /// doing the same at that moment SQLite answers `SQLITE_BUSY` at once, without consulting the busy
    /// handler, so ``busyTimeout`` does not cover it. Opening is tried again every 10 ms, for at most
    /// ``busyTimeout`` from the first try (the real clock, read only after a refusal: the registry
    /// lives outside any simulation).
    static func openPool(path: String, configuration: Configuration) throws -> DatabasePool {
        var deadline: ContinuousClock.Instant?
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                let now = ContinuousClock.now
                let end = deadline ?? now.advanced(by: .seconds(busyTimeout))
                deadline = end
                guard now < end else { throw error }
                usleep(10_000)
            }
        }
    }

    /// Opens the default database, `devices.sqlite` in
    /// ``/AirlinkRegistry/RegistryLocation/dataDirectory(environment:)``.
    ///
    /// - Parameter environment: the process environment to find the data directory from.
    /// - Throws: what ``init(path:)`` throws, or ``/AirlinkCore/AirlinkError/Code/storageFailed`` if neither
    ///   `XDG_DATA_HOME` nor `HOME` is set.
    public convenience init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(AirlinkError) {
        try self.init(path: RegistryLocation.defaultPath(of: Self.defaultFileName, environment: environment))
    }

    /// Stores `record`, replacing any record of the same device.
    ///
    /// - Throws: what ``/AirlinkRegistry/ConnectionRecord/validate()`` throws; a storage error.
    public func save(_ record: ConnectionRecord) async throws(AirlinkError) {
        try record.validate()
        try await write { db in try DeviceRow.upsert(record, in: db) }
    }

    /// The record of device `id`, or `nil`.
    ///
    /// - Throws: a storage error; ``/AirlinkCore/AirlinkError/Code/corruptStore`` for a corrupt row.
    public func record(for id: DeviceID) async throws(AirlinkError) -> ConnectionRecord? {
        try await read { db in try DeviceRow.fetch(id, in: db) }
    }

    /// Every record, the last connected first.
    ///
    /// - Throws: a storage error; ``/AirlinkCore/AirlinkError/Code/corruptStore`` for a corrupt row.
    public func all() async throws(AirlinkError) -> [ConnectionRecord] {
        try await read { db in
            try DeviceRow.fetchAll(db, sql: "SELECT \(DeviceRow.columns) FROM device ORDER BY lastConnected DESC, id")
        }
    }

    /// The record of the device connected to last, or `nil`, from the index.
    ///
    /// - Throws: a storage error; ``/AirlinkCore/AirlinkError/Code/corruptStore`` for a corrupt row.
    public func lastConnected() async throws(AirlinkError) -> ConnectionRecord? {
        try await read { db in
            try DeviceRow.fetchAll(
                db, sql: "SELECT \(DeviceRow.columns) FROM device ORDER BY lastConnected DESC, id LIMIT 1"
            ).first
        }
    }

    /// Removes the record of device `id`.
    ///
    /// - Returns: whether there was one.
    /// - Throws: a storage error.
    @discardableResult
    public func remove(_ id: DeviceID) async throws(AirlinkError) -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM device WHERE id = ?", arguments: [id.description])
            return db.changesCount > 0
        }
    }

    /// Removes every record.
    ///
    /// - Throws: a storage error.
    public func removeAll() async throws(AirlinkError) {
        try await write { db in try db.execute(sql: "DELETE FROM device") }
    }

    /// Reads, changes and writes the record of `id` in one `IMMEDIATE` transaction.
    ///
    /// - Throws: what `change` throws; what ``/AirlinkRegistry/ConnectionRecord/validate()`` throws; a storage error.
    public func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) async throws(AirlinkError) -> ConnectionRecord {
        try await write { db in
            let record = try change(try DeviceRow.fetch(id, in: db))
            try Self.checkUpdate(of: id, produced: record)
            try record.validate()
            try DeviceRow.upsert(record, in: db)
            return record
        }
    }

    // MARK: Access

    private func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(AirlinkError) -> T {
        do {
            return try await pool.read(body)
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// Runs `body` in an `IMMEDIATE` transaction: the write lock is taken before the first read, so
    /// a read-change-write cannot interleave with another process's.
    private func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws(AirlinkError) -> T {
        do {
            return try await pool.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        } catch {
            throw Self.storeError(error, path: path)
        }
    }

    /// An error from GRDB or a closure as an ``/AirlinkCore/AirlinkError`` naming the database.
    static func storeError(_ error: any Error, path: String) -> AirlinkError {
        if let error = error as? AirlinkError { return error.with(context: path) }
        if let error = error as? DatabaseError {
            let code: AirlinkError.Code =
                [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) ? .corruptStore : .storageFailed
            return AirlinkError(
                code, "the device registry \(path) failed: \(error.message ?? "SQLite error \(error.resultCode)")",
                cause: .other("\(error)"), context: path)
        }
        if error is CancellationError {
            return AirlinkError(.cancelled, "the device registry access was cancelled", context: path)
        }
        return AirlinkError(.storageFailed, "the device registry \(path) failed: \(error)", context: path)
    }
}
