import AirlinkCore
import AirlinkRegistry
import Foundation
import GRDB

/// Maps ``/AirlinkRegistry/ConnectionRecord``s to rows of the `device` table and back, validating what it reads.
enum DeviceRow {
    /// The columns, in the order ``arguments(of:)`` gives their values.
    static let columns =
        "id, name, services, firstConnected, lastConnected, connectionCount, databaseHash, database, bond"

    /// The statement arguments of `record`, in ``columns`` order.
    static func arguments(of record: ConnectionRecord) -> StatementArguments {
        [
            record.id.description, record.name, record.services.map(\.description).joined(separator: ","),
            record.firstConnected.secondsSince1970, record.lastConnected.secondsSince1970,
            record.connectionCount, record.databaseHash.map { Data($0) }, databaseText(record.database),
            record.bond?.jsonText,
        ]
    }

    /// Inserts `record`, replacing the row of the same id.
    static func upsert(_ record: ConnectionRecord, in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO device (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: arguments(of: record))
    }

    /// The record of `id`, or `nil`.
    static func fetch(_ id: DeviceID, in db: Database) throws -> ConnectionRecord? {
        let row = try Row.fetchOne(db, sql: "SELECT \(columns) FROM device WHERE id = ?", arguments: [id.description])
        return try row.map(record)
    }

    /// Records from a `SELECT` of ``columns``.
    static func fetchAll(_ db: Database, sql: String) throws -> [ConnectionRecord] {
        try Row.fetchAll(db, sql: sql).map(record)
    }

    /// Decodes a row, throwing ``/AirlinkCore/AirlinkError/Code/corruptStore`` for a value that breaks the record's
    /// rules (an unparsable id or UUID, a count below 1).
    static func record(_ row: Row) throws -> ConnectionRecord {
        func value<Value: DatabaseValueConvertible>(_ column: String) -> Value? {
            Value.fromDatabaseValue(row[column] as DatabaseValue)
        }
        let text: String = value("id") ?? ""
        do throws(AirlinkError) {
            let id = try DeviceID(parsing: text)
            var services: [BluetoothUUID] = []
            for uuid in (value("services") ?? "").split(separator: ",") {
                services.append(try BluetoothUUID(parsing: String(uuid)))
            }
            let hash: Data? = value("databaseHash")
            let database = try cachedDatabase(value("database"))
            let bondText: String? = value("bond")
            let bond = try bondText.map { text throws(AirlinkError) in try BondRecord(jsonText: text) }
            let record = ConnectionRecord(
                id: id, name: value("name"), services: services,
                firstConnected: RecordTimestamp(secondsSince1970: value("firstConnected") ?? .nan),
                lastConnected: RecordTimestamp(secondsSince1970: value("lastConnected") ?? .nan),
                connectionCount: value("connectionCount") ?? 0, databaseHash: hash.map { Array($0) },
                database: database, bond: bond)
            try record.validate()
            return record
        } catch {
            throw AirlinkError(
                .corruptStore,
                "the row of device \"\(text)\" is corrupt: \(error.message); delete the row "
                    + "with SQL, or the database to start a new registry", cause: .underlying(error))
        }
    }

    /// The cached database as the `database` column keeps it: JSON, or `NULL` for none.
    static func databaseText(_ database: CachedGATTDatabase?) -> String? { database?.jsonText }

    /// The cached database of a `database` column, or `nil` for `NULL`.
    static func cachedDatabase(_ text: String?) throws(AirlinkError) -> CachedGATTDatabase? {
        try text.map { text throws(AirlinkError) in try CachedGATTDatabase(jsonText: text) }
    }
}
