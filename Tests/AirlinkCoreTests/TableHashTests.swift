import Testing

@testable import AirlinkCore

/// Handles and UUIDs hash with a cheap mixer instead of SipHash (Docs/Performance.md, "What the hot paths rely
/// on"): the tables keyed by them must still find every key and spread keys of one family over their buckets.
@Suite struct TableHashTests {
    @Test func handlesHashEquallyWhenEqualAndSpreadOverBuckets() {
        // Given the handles of a large database, hashed with a table's seed
        let handles = (1...4096).map { ATTHandle(UInt16($0)) }
        let seed = 0x5EED

        // Then equal handles hash equally
        #expect(handles.allSatisfy { $0._rawHashValue(seed: seed) == ATTHandle($0.rawValue)._rawHashValue(seed: seed) })
        // And in a table of 8,192 buckets no bucket holds more than a few (SipHash's spread)
        #expect(Self.fullestBucket(handles.map { $0._rawHashValue(seed: seed) }, buckets: 8192) <= 6)
    }

    @Test func shortAndLongUUIDsSpreadOverBuckets() {
        // Given 16-bit UUIDs over the Base UUID (they differ in 16 bits of one half) and vendor UUIDs
        // that differ only in their low half
        let short = (0..<4096).map { BluetoothUUID(UInt16(0x1800 + $0)) }
        let vendor = (0..<4096).map { BluetoothUUID(value: 0xF000_AA00_0451_4000_B000_0000_0000_0000 | UInt128($0)) }

        // Then both spread over a table of 8,192 buckets, and a UUID equal to another hashes equally
        #expect(Self.fullestBucket(short.map { $0._rawHashValue(seed: 7) }, buckets: 8192) <= 6)
        #expect(Self.fullestBucket(vendor.map { $0._rawHashValue(seed: 7) }, buckets: 8192) <= 6)
        #expect(
            BluetoothUUID(0x180F)._rawHashValue(seed: 7)
                == BluetoothUUID(value: BluetoothUUID(0x180F).value)._rawHashValue(seed: 7))
    }

    @Test func uuidsAPeerCraftsToCollideStillSpread() {
        // Given 4,096 UUIDs a hostile peer built to collide under a fold of the halves that ignores the
        // seed (high = c ^ (low * k), the multiplier public in the source)
        let crafted = (1...4096).map { (index: Int) -> BluetoothUUID in
            let low = UInt64(index)
            let high = 0xDEAD_BEEF_0000_0000 ^ (low &* 0x9E37_79B9_7F4A_7C15)
            return BluetoothUUID(value: UInt128(high) << 64 | UInt128(low))
        }

        // Then under any table's seed they spread over 8,192 buckets as other UUIDs do
        for seed in [7, 0x5EED, -1] {
            #expect(Self.fullestBucket(crafted.map { $0._rawHashValue(seed: seed) }, buckets: 8192) <= 6)
        }
    }

    @Test func dictionariesFindEveryKey() {
        // Given dictionaries keyed by handles and by UUIDs
        let byHandle = Dictionary(uniqueKeysWithValues: (1...2000).map { (ATTHandle(UInt16($0)), $0) })
        let byUUID = Dictionary(uniqueKeysWithValues: (0..<2000).map { (BluetoothUUID(UInt16($0)), $0) })

        // Then every key finds its value
        #expect((1...2000).allSatisfy { byHandle[ATTHandle(UInt16($0))] == $0 })
        #expect((0..<2000).allSatisfy { byUUID[BluetoothUUID(UInt16($0))] == $0 })
    }

    /// The most hashes that fall in one bucket of a table of `buckets` (a power of two), by the low bits
    /// a `Dictionary` uses.
    private static func fullestBucket(_ hashes: [Int], buckets: Int) -> Int {
        var counts = [Int](repeating: 0, count: buckets)
        for hash in hashes { counts[hash & (buckets - 1)] += 1 }
        return counts.max() ?? 0
    }
}
