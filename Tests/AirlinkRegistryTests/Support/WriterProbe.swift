import AirlinkCore
import AirlinkRegistry
import Foundation

/// The child side of the kill test: saves records in a loop, acknowledging each save that returned,
/// until it is killed.
///
/// Save number `k` writes device `k % slots` with `connectionCount = k / slots + 1`, so the stored
/// records say exactly which saves they hold: the newest, `k`, and for every slot the last save
/// before it. The parent checks that after each kill.
enum WriterProbe {
    static let kindVariable = "AIRLINK_REGISTRY_WRITER_KIND"
    static let pathVariable = "AIRLINK_REGISTRY_WRITER_PATH"
    static let acksVariable = "AIRLINK_REGISTRY_WRITER_ACKS"
    /// Devices written in turn.
    static let slots = 64

    /// The child's settings, or `nil` in an ordinary test run.
    static var configuration: (kind: RepositoryKind, path: String, acks: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let kind = environment[kindVariable].flatMap(RepositoryKind.named), let path = environment[pathVariable],
            let acks = environment[acksVariable]
        else { return nil }
        return (kind, path, acks)
    }

    /// The record save `k` writes.
    static func record(forSave k: Int) -> ConnectionRecord {
        ConnectionRecord(
            id: Fixtures.id(k % slots), name: "save \(k)", services: [.battery], firstConnected: Fixtures.newYear,
            lastConnected: Fixtures.newYear.advanced(by: .seconds(k)), connectionCount: k / slots + 1,
            databaseHash: [UInt8(truncatingIfNeeded: k)])
    }

    /// The save a stored record came from.
    static func save(of record: ConnectionRecord) -> Int? {
        guard case .address(let address, _) = record.id.kind else { return nil }
        return (record.connectionCount - 1) * slots + Int(address.value - 0xC0FF_EE00_0000)
    }

    /// The newest save the records hold, or -1 if none; throws unless they hold exactly the saves up
    /// to it, each slot's last.
    static func newestSave(in records: [ConnectionRecord]) throws -> Int {
        let newest = records.compactMap(save(of:)).max() ?? -1
        let expected = (0..<min(newest + 1, slots)).map { slot in record(forSave: newest - (newest - slot) % slots) }
        guard records.sorted(by: ConnectionRecord.isMoreRecent) == expected.sorted(by: ConnectionRecord.isMoreRecent)
        else {
            throw ProbeFailure(
                "the store holds saves \(records.compactMap(save(of:)).sorted()), not the last of "
                    + "each slot up to \(newest)")
        }
        return newest
    }

    /// Saves forever, appending `k` to the acknowledgement file after save `k` returns.
    static func run(kind: RepositoryKind, path: String, acks: String) async throws -> Never {
        let repository = try kind.open(path)
        var k = try newestSave(in: try await repository.all()) + 1
        let fd = open(acks, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        precondition(fd >= 0, "cannot open \(acks)")
        while true {
            try await repository.save(record(forSave: k))
            let line = Array("\(k)\n".utf8)
            precondition(line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == line.count)
            k += 1
        }
    }
}

struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
