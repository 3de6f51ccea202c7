import GRDB

/// SQLite registries as older Airlinks made them, for migration tests.
enum OldSchemas {
    /// The version 1 schema, `v1-device`, with one row: `C0:FF:EE:00:00:01` named "Old", 3 connections.
    static func registerVersion1(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v1-device") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device (id TEXT PRIMARY KEY NOT NULL, name TEXT, services TEXT NOT NULL,
                      firstConnected REAL NOT NULL, lastConnected REAL NOT NULL,
                      connectionCount INTEGER NOT NULL CHECK (connectionCount >= 1), databaseHash BLOB
                    ) STRICT, WITHOUT ROWID;
                    CREATE INDEX device_by_last_connection ON device(lastConnected DESC, id);
                    INSERT INTO device VALUES ('C0:FF:EE:00:00:01', 'Old', '180F', 1767225600, 1767225600, 3, NULL);
                    """)
        }
    }

    /// Writes a registry at `path` of schema `version` (1: `v1-device`; 2: and `v2-database-cache`).
    static func write(at path: String, version: Int) throws {
        let queue = try DatabaseQueue(path: path)
        var migrator = DatabaseMigrator()
        registerVersion1(&migrator)
        if version >= 2 {
            migrator.registerMigration("v2-database-cache") { db in
                try db.execute(sql: "ALTER TABLE device ADD COLUMN database TEXT")
            }
        }
        try migrator.migrate(queue)
        try queue.close()
    }
}
