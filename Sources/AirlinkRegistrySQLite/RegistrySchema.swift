import AirlinkCore
import GRDB

/// The SQLite registry's schema: its migrations, and the check that refuses a database migrated by
/// a newer Airlink.
///
/// Version 1, migration `v1-device`:
///
/// ```sql
/// CREATE TABLE device (
///   id TEXT PRIMARY KEY NOT NULL,           -- DeviceID's written form: lookups by id
///   name TEXT,
///   services TEXT NOT NULL,                 -- UUIDs, comma-separated, in discovery order
///   firstConnected REAL NOT NULL,           -- seconds since 1970
///   lastConnected REAL NOT NULL,
///   connectionCount INTEGER NOT NULL CHECK (connectionCount >= 1),
///   databaseHash BLOB
/// ) STRICT, WITHOUT ROWID;
/// CREATE INDEX device_by_last_connection ON device(lastConnected DESC, id);
/// ```
///
/// Version 2, migration `v2-database-cache`, adds the cached GATT database (``/AirlinkRegistry/CachedGATTDatabase``
/// as JSON; `NULL` for none, as in every row written before it):
///
/// ```sql
/// ALTER TABLE device ADD COLUMN database TEXT;
/// ```
///
/// Version 3, migration `v3-bond`, adds the bond (``/AirlinkRegistry/BondRecord`` as JSON; `NULL` for none):
///
/// ```sql
/// ALTER TABLE device ADD COLUMN bond TEXT;
/// ```
///
/// A schema change adds a migration to ``migrator`` and never edits a registered one.
enum RegistrySchema {
    /// The table of records.
    static let table = "device"
    /// The index that orders devices the last connected first.
    static let lastConnectionIndex = "device_by_last_connection"

    /// The migrations, in order.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-device") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (
                      id TEXT PRIMARY KEY NOT NULL,
                      name TEXT,
                      services TEXT NOT NULL,
                      firstConnected REAL NOT NULL,
                      lastConnected REAL NOT NULL,
                      connectionCount INTEGER NOT NULL CHECK (connectionCount >= 1),
                      databaseHash BLOB
                    ) STRICT, WITHOUT ROWID;
                    CREATE INDEX device_by_last_connection ON device(lastConnected DESC, id);
                    """)
        }
        migrator.registerMigration("v2-database-cache") { db in
            try db.execute(sql: "ALTER TABLE device ADD COLUMN database TEXT")
        }
        migrator.registerMigration("v3-bond") { db in
            try db.execute(sql: "ALTER TABLE device ADD COLUMN bond TEXT")
        }
        return migrator
    }

    /// Migrates `pool` to the newest schema.
    ///
    /// Two processes that open a new registry at once both find it unmigrated; the second one's
    /// `CREATE TABLE` waits for the first one's transaction (the busy timeout), then fails because the
    /// table exists. A migration is one transaction, so the first one's work is whole: when the
    /// migrations are complete after such a failure, the database is ready and the failure is not one.
    /// With several migrations the first one may still be applying a later migration then: as long as
    /// each failure finds more migrations applied than before (another process is making progress), the
    /// migration is tried again, so the second one goes on from where the first one got.
    static func migrate(_ pool: DatabasePool) throws {
        let migrator = migrator
        var applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
        while true {
            do {
                try migrator.migrate(pool)
                return
            } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
                let (complete, now) = try pool.read { db in
                    (try migrator.hasCompletedMigrations(db), try migrator.appliedIdentifiers(db))
                }
                if complete { return }
                guard now.isStrictSuperset(of: applied) else { throw error }
                applied = now
            }
        }
    }

    /// Migrations applied to `db` that this Airlink does not know, sorted; empty if none.
    static func unknownMigrations(in db: Database) throws -> [String] {
        let migrator = migrator
        guard try migrator.hasBeenSuperseded(db) else { return [] }
        return try migrator.appliedIdentifiers(db).subtracting(migrator.migrations).sorted()
    }
}
