import AirlinkCore
import AirlinkRegistry
import AirlinkRegistrySQLite
import Benchmark
import Foundation

/// The registry's figures (target: under 1 ms each with SQLite): saving a record, looking one up and
/// finding the last connected among 10,000 known devices; the JSON file for comparison.
///
/// Each sample is one operation on a device chosen from the iteration number; the stores are built
/// once per process, outside the measurement.
let benchmarks: @Sendable () -> Void = {
    atexit { try? FileManager.default.removeItem(atPath: Fixture.directory) }
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput], warmupIterations: 10, maxDuration: .seconds(3), maxIterations: 10_000)
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 50)

    Benchmark("SQLite: look up one of 10,000") { benchmark in
        let repository = try await Fixture.sqlite()
        benchmark.startMeasurement()
        for offset in benchmark.scaledIterations {
            let iteration = benchmark.currentIteration &* benchmark.scaledIterations.count &+ offset
            blackHole(try await repository.record(for: Fixture.id(iteration)))
        }
    }

    Benchmark("SQLite: save one of 10,000") { benchmark in
        let repository = try await Fixture.sqlite()
        benchmark.startMeasurement()
        for offset in benchmark.scaledIterations {
            let iteration = benchmark.currentIteration &* benchmark.scaledIterations.count &+ offset
            try await repository.save(Fixture.record(iteration, count: 2))
        }
    }

    Benchmark("SQLite: record a connection among 10,000 (read + write)") { benchmark in
        let registry = DeviceRegistry(repository: try await Fixture.sqlite())
        benchmark.startMeasurement()
        for offset in benchmark.scaledIterations {
            let iteration = benchmark.currentIteration &* benchmark.scaledIterations.count &+ offset
            blackHole(
                try await registry.recordConnection(
                    device: Fixture.id(iteration), name: "Sensor", at: Fixture.epoch.advanced(by: .seconds(20_000))))
        }
    }

    Benchmark("SQLite: last connected among 10,000") { benchmark in
        let repository = try await Fixture.sqlite()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await repository.lastConnected())
        }
    }

    Benchmark("JSON: look up one of 10,000") { benchmark in
        let repository = try await Fixture.json()
        benchmark.startMeasurement()
        for offset in benchmark.scaledIterations {
            let iteration = benchmark.currentIteration &* benchmark.scaledIterations.count &+ offset
            blackHole(try await repository.record(for: Fixture.id(iteration)))
        }
    }

    Benchmark("JSON: save one of 10,000", configuration: slow) { benchmark in
        let repository = try await Fixture.json()
        benchmark.startMeasurement()
        for offset in benchmark.scaledIterations {
            let iteration = benchmark.currentIteration &* benchmark.scaledIterations.count &+ offset
            try await repository.save(Fixture.record(iteration, count: 2))
        }
    }

    Benchmark("JSON: open and read 10,000", configuration: slow) { benchmark in
        let path = try await Fixture.json().path
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await JSONFileDeviceRepository(path: path).all().count)
        }
    }
}

/// The stores of 10,000 devices the benchmarks share, built once per process.
enum Fixture {
    static let count = 10_000
    static let epoch = RecordTimestamp(secondsSince1970: 1_767_225_600)
    static let directory = NSTemporaryDirectory() + "/airlink-registry-benchmarks-\(getpid())"

    /// Device `index % count`, visited in a scattered order.
    static func id(_ index: Int) -> DeviceID {
        DeviceID(BDAddress(value: 0xC0FF_EE00_0000 + UInt64(index &* 7919 % count)), type: .public)
    }

    static func record(_ index: Int, count: Int = 1) -> ConnectionRecord {
        ConnectionRecord(
            id: id(index), name: "Sensor \(index)", services: [.battery, .deviceInformation], firstConnected: epoch,
            lastConnected: epoch.advanced(by: .seconds(index)), connectionCount: count,
            databaseHash: Array(repeating: UInt8(truncatingIfNeeded: index), count: 16))
    }

    private actor Stores {
        var sqlite: SQLiteDeviceRepository?
        var json: JSONFileDeviceRepository?

        func sqlite() async throws -> SQLiteDeviceRepository {
            if let sqlite { return sqlite }
            let repository = try SQLiteDeviceRepository(path: directory + "/devices.sqlite")
            for index in 0..<count { try await repository.save(record(index)) }
            sqlite = repository
            return repository
        }

        func json() async throws -> JSONFileDeviceRepository {
            if let json { return json }
            struct Document: Encodable {
                var format = "airlink-device-registry"
                var schemaVersion = 1
                var devices: [ConnectionRecord]
            }
            let path = directory + "/devices.json"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try JSONEncoder().encode(Document(devices: (0..<count).map { record($0) }))
                .write(to: URL(fileURLWithPath: path))
            let repository = JSONFileDeviceRepository(path: path)
            let stored = try await repository.all().count
            precondition(stored == count, "the JSON fixture holds \(stored) devices, not \(count)")
            json = repository
            return repository
        }
    }

    private static let stores = Stores()

    /// The SQLite store, filled with 10,000 devices on first use.
    static func sqlite() async throws -> SQLiteDeviceRepository { try await stores.sqlite() }

    /// The JSON store, written with 10,000 devices and read once on first use.
    static func json() async throws -> JSONFileDeviceRepository { try await stores.json() }
}
