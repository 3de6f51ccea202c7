import AirlinkCore
import AirlinkRegistry

/// Records and times the tests share.
enum Fixtures {
    /// 2026-01-01 00:00 UTC.
    static let newYear = RecordTimestamp(secondsSince1970: 1_767_225_600)

    /// A public address numbered `index`: `C0:FF:EE:xx:xx:xx`.
    static func id(_ index: Int) -> DeviceID {
        DeviceID(BDAddress(value: 0xC0FF_EE00_0000 + UInt64(index)), type: .public)
    }

    /// A record of device `index`, last connected `index` seconds after New Year.
    static func record(_ index: Int, count: Int = 1) -> ConnectionRecord {
        ConnectionRecord(
            id: id(index), name: "Sensor \(index)", services: [.battery, .deviceInformation],
            firstConnected: newYear, lastConnected: newYear.advanced(by: .seconds(index)), connectionCount: count,
            databaseHash: [UInt8(truncatingIfNeeded: index), 0x5A])
    }

    /// A record with every field set and unusual values: a random address, a 128-bit service UUID,
    /// times with fractions, a 16-byte hash.
    static var rich: ConnectionRecord {
        ConnectionRecord(
            id: "C0:FF:EE:00:00:01/random", name: "Thermostat “Küche”",
            services: [.battery, try! BluetoothUUID(parsing: "6E400001-B5A3-F393-E0A9-E50E24DCCA9E")],
            firstConnected: RecordTimestamp(secondsSince1970: 1_767_225_600.123_456_7),
            lastConnected: RecordTimestamp(secondsSince1970: 1_767_312_000.000_001), connectionCount: 42,
            databaseHash: Array(0..<16))
    }
}

/// SplitMix64: a small seeded generator for the tests' random choices.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
