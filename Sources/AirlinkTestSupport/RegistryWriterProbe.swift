import AirlinkCore
import AirlinkRegistry

#if canImport(Glibc)
    import Glibc
#endif

/// The writer of the registry's kill test: saves records in a loop, acknowledging each save that
/// returned, until it is killed. The executable `airlink-registry-writer` runs it in a child process;
/// the test reads what the store holds afterwards.
///
/// Save number `k` writes device `k % slots` with `connectionCount = k / slots + 1`, so the stored
/// records say exactly which saves they hold: the newest, `k`, and for every slot the last save
/// before it. The parent checks that after each kill.
package enum RegistryWriterProbe {
    /// Devices written in turn.
    package static let slots = 64
    /// 2026-01-01 00:00 UTC: the first connection of every record.
    package static let start = RecordTimestamp(secondsSince1970: 1_767_225_600)

    /// The device of slot `slot`: `C0:FF:EE:00:00:xx`.
    static func id(_ slot: Int) -> DeviceID {
        DeviceID(BDAddress(value: 0xC0FF_EE00_0000 + UInt64(slot)), type: .public)
    }

    /// The record save `k` writes.
    package static func record(forSave k: Int) -> ConnectionRecord {
        ConnectionRecord(
            id: id(k % slots), name: "save \(k)", services: [.battery], firstConnected: start,
            lastConnected: start.advanced(by: .seconds(k)), connectionCount: k / slots + 1,
            databaseHash: [UInt8(truncatingIfNeeded: k)])
    }

    /// The save a stored record came from.
    package static func save(of record: ConnectionRecord) -> Int? {
        guard case .address(let address, _) = record.id.kind else { return nil }
        return (record.connectionCount - 1) * slots + Int(address.value - 0xC0FF_EE00_0000)
    }

    /// The newest save the records hold, or -1 if none; throws unless they hold exactly the saves up
    /// to it, each slot's last.
    package static func newestSave(in records: [ConnectionRecord]) throws(ProbeFailure) -> Int {
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

    /// Saves forever into `repository`, appending `k` to the file `acks` after save `k` returns; after the first
    /// acknowledgement, writes one line to standard output (the parent waits on it) and closes it.
    package static func run(_ repository: any DeviceRepository, acks: String) async throws -> Never {
        var k = try newestSave(in: try await repository.all()) + 1
        let fd = open(acks, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ProbeFailure("cannot open \(acks): errno \(errno)") }
        var announced = false
        while true {
            try await repository.save(record(forSave: k))
            let line = Array("\(k)\n".utf8)
            guard line.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == line.count else {
                throw ProbeFailure("cannot append to \(acks): errno \(errno)")
            }
            if !announced {
                // Dropped results: a parent that stopped listening does not stop the writing, which is the test.
                _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
                _ = close(1)
                announced = true
            }
            k += 1
        }
    }
}

/// What went wrong in the kill test's writer or in what it left behind.
package struct ProbeFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
