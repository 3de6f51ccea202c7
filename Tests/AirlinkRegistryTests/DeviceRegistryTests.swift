import AirlinkCore
import AirlinkRegistry
import AirlinkTestSupport
import Testing

@Suite struct DeviceRegistryTests {
    let thermostat: DeviceID = "C0:FF:EE:00:00:01/random"
    let t0 = Fixtures.newYear

    @Test func firstConnectionCreatesARecord() async throws {
        // Given a registry that knows no device
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())

        // When a connection is recorded
        let record = try await registry.recordConnection(
            device: thermostat, name: "Thermostat", services: [.battery], databaseHash: [1, 2], at: t0)

        // Then the record counts one connection, first and last at that time
        #expect(record.connectionCount == 1)
        #expect(record.firstConnected == t0)
        #expect(record.lastConnected == t0)
        #expect(record.name == "Thermostat")
        #expect(record.services == [.battery])
        #expect(record.databaseHash == [1, 2])
        #expect(try await registry.record(for: thermostat) == record)
    }

    @Test func laterConnectionsCountAndMoveTheLastTime() async throws {
        // Given a device first connected at t0
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())
        try await registry.recordConnection(device: thermostat, name: "Thermostat", services: [.battery], at: t0)

        // When two more connections are recorded, without name or services
        try await registry.recordConnection(device: thermostat, at: t0.advanced(by: .seconds(60)))
        let record = try await registry.recordConnection(device: thermostat, at: t0.advanced(by: .seconds(90)))

        // Then the count is 3, the first time kept, the last moved, name and services kept
        #expect(record.connectionCount == 3)
        #expect(record.firstConnected == t0)
        #expect(record.lastConnected == t0.advanced(by: .seconds(90)))
        #expect(record.name == "Thermostat")
        #expect(record.services == [.battery])
    }

    @Test func anEarlierConnectionReportedLateDoesNotMoveTheLastTimeBack() async throws {
        // Given a device connected at t0 + 100 s
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())
        try await registry.recordConnection(device: thermostat, at: t0.advanced(by: .seconds(100)))

        // When a connection at t0 is recorded after it
        let record = try await registry.recordConnection(device: thermostat, at: t0)

        // Then it counts, becomes the first, and the last stays at t0 + 100 s
        #expect(record.connectionCount == 2)
        #expect(record.firstConnected == t0)
        #expect(record.lastConnected == t0.advanced(by: .seconds(100)))
    }

    @Test func aNewDatabaseHashReplacesTheCachedServices() async throws {
        // Given a device recorded with a layout and its hash
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())
        try await registry.recordConnection(
            device: thermostat, services: [.battery, .deviceInformation], databaseHash: [0xAA], at: t0)

        // When it reconnects with the same hash and no discovery, the layout is still current
        let same = try await registry.recordConnection(device: thermostat, databaseHash: [0xAA], at: t0)
        #expect(same.services == [.battery, .deviceInformation])
        #expect(same.hasCurrentLayout(databaseHash: [0xAA]))

        // When it reconnects with another hash (new firmware) and nothing discovered yet
        let changed = try await registry.recordConnection(device: thermostat, databaseHash: [0xBB], at: t0)

        // Then the old services are dropped, so that the layout is discovered again
        #expect(changed.services.isEmpty)
        #expect(changed.databaseHash == [0xBB])
        #expect(!changed.hasCurrentLayout(databaseHash: [0xAA]))
    }

    @Test func forgetRemovesOneDevice() async throws {
        // Given two known devices, the thermostat connected last
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())
        try await registry.recordConnection(device: Fixtures.id(1), at: t0)
        try await registry.recordConnection(device: thermostat, at: t0.advanced(by: .seconds(1)))
        #expect(try await registry.lastConnectedDevice()?.id == thermostat)

        // When the thermostat is forgotten
        #expect(try await registry.forget(thermostat))

        // Then the other device is the last connected, and a new connection starts a new record
        #expect(try await registry.lastConnectedDevice()?.id == Fixtures.id(1))
        #expect(try await registry.forget(thermostat) == false)
        #expect(try await registry.recordConnection(device: thermostat, at: t0).connectionCount == 1)

        // When every device is forgotten, Then none is known
        try await registry.forgetAll()
        #expect(try await registry.knownDevices().isEmpty)
    }

    @Test func knownDevicesWithIDsKeepsTheAskedOrderAndSkipsUnknown() async throws {
        // Given devices 1 and 2 known
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())
        try await registry.recordConnection(device: Fixtures.id(1), at: t0)
        try await registry.recordConnection(device: Fixtures.id(2), at: t0)

        // When devices 2, 3 and 1 are asked for
        let records = try await registry.knownDevices(withIDs: [Fixtures.id(2), Fixtures.id(3), Fixtures.id(1)])

        // Then 2 and 1 are returned, in that order
        #expect(records.map(\.id) == [Fixtures.id(2), Fixtures.id(1)])
    }

    @Test func anInvalidDeviceIsNotRecorded() async throws {
        // Given a registry
        let repository = MemoryDeviceRepository()
        let registry = DeviceRegistry(repository: repository)

        // When a connection to the all-zero address is recorded
        let error = await #expect(throws: AirlinkError.self) {
            try await registry.recordConnection(device: "00:00:00:00:00:00", at: t0)
        }

        // Then it is rejected before the repository is touched
        #expect(error?.code == .invalidDeviceID)
        #expect(await repository.saves == 0)
    }

    @Test func concurrentRecordingsThroughOneRegistryAreAllCounted() async throws {
        // Given a registry on the smallest repository, whose update is not atomic by itself
        let registry = DeviceRegistry(repository: MemoryDeviceRepository())

        // When 50 tasks record a connection each
        await withTaskGroup(of: Void.self) { group in
            for second in 0..<50 {
                group.addTask {
                    _ = try? await registry.recordConnection(
                        device: "C0:FF:EE:00:00:01/random", at: Fixtures.newYear.advanced(by: .seconds(second)))
                }
            }
        }

        // Then every one is counted, and the last time is the latest
        let record = try await registry.record(for: thermostat)
        #expect(record?.connectionCount == 50)
        #expect(record?.lastConnected == t0.advanced(by: .seconds(49)))
    }

    @Test(arguments: RepositoryKind.all)
    func registriesOnTheirOwnRepositoriesAreIndependent(kind: RepositoryKind) async throws {
        // Given two registries, each on its own file
        let directory = TemporaryDirectory()
        let home = DeviceRegistry(repository: try kind.open(directory.file("home-" + kind.fileName)))
        let lab = DeviceRegistry(repository: try kind.open(directory.file("lab-" + kind.fileName)))

        // When each records a different device
        try await home.recordConnection(device: thermostat, name: "Thermostat", at: t0)
        try await lab.recordConnection(device: Fixtures.id(9), name: "Bench", at: t0)

        // Then each knows its own only
        #expect(try await home.knownDevices().map(\.id) == [thermostat])
        #expect(try await lab.knownDevices().map(\.id) == [Fixtures.id(9)])
    }

    @Test func recordClockMapsTheEnvironmentClockFromItsEpoch() {
        // Given a clock at 2.5 s after its origin, pinned to New Year
        let clock = RecordClock(
            AirlinkClock(backend: FixedClockBackend(now: AirlinkInstant(offset: .milliseconds(2500)))), epoch: t0)

        // Then its timestamps are New Year plus the offset
        #expect(clock.now == RecordTimestamp(secondsSince1970: 1_767_225_602.5))
        #expect(clock.timestamp(of: .zero) == t0)
    }
}

/// A clock backend that stays at one instant.
struct FixedClockBackend: ClockBackend {
    let now: AirlinkInstant
    func sleep(until deadline: AirlinkInstant) async throws {}
}
