import AirlinkCore
import AirlinkRegistry
import Testing

/// Changes through one registry take turns: a change holds the repository from its read to its save, and a
/// second change waits for its turn rather than read the record the first is about to replace. Shown with a
/// repository that stops between read and save until the test opens its gate, so the window a race would need
/// is held open every time, not hit by chance.
@Suite struct RegistryTurnsTests {
    /// What the test sees happen, in order.
    enum Step: Equatable, Sendable {
        /// The repository read a record for an update, which now waits on the gate.
        case read
        /// The registry queued a change behind the one holding the repository.
        case waitingForTurn
        /// A recording returned (or threw).
        case returned
        /// The test's deadline passed: what it waited for did not happen.
        case deadline
    }

    @Test func aSecondRecordingWaitsForTheFirstToSaveAndBothAreCounted() async throws {
        // Given a registry on a repository whose updates stop between read and save, every step reported
        let (steps, step) = AsyncStream.makeStream(of: Step.self)
        let repository = GatedDeviceRepository { step.yield(.read) }
        let registry = DeviceRegistry(repository: repository)
        await registry.onChangeWaitingForItsTurn { step.yield(.waitingForTurn) }
        let device = Fixtures.id(1)
        var next = steps.makeAsyncIterator()
        // Real time, as a deadline: the registry runs on Swift's executors, and a registry whose turns never come
        // (a change waiting for a turn nobody hands over) must fail the test, not hang it.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(30))
            step.yield(.deadline)
            step.finish()  // every later wait ends at once
        }
        defer { watchdog.cancel() }

        // When one recording has read the record and stands at the gate, and a second recording starts
        let first = Task {
            defer { step.yield(.returned) }
            return try await registry.recordConnection(device: device, at: Fixtures.newYear)
        }
        let firstStep = await next.next()
        let second = Task {
            defer { step.yield(.returned) }
            return try await registry.recordConnection(device: device, at: Fixtures.newYear.advanced(by: .seconds(1)))
        }
        let secondStep = await next.next()
        await repository.open()
        var returned = [firstStep, secondStep].filter { $0 == .returned }.count
        while returned < 2, let step = await next.next(), step != .deadline {
            if step == .returned { returned += 1 }
        }
        try #require(returned == 2, "the recordings did not both return within 30 s of the gate opening")
        _ = try await (first.value, second.value)

        // Then the second waited for its turn instead of reading the record the first was changing, and both
        // connections are counted
        #expect(firstStep == .read)
        #expect(secondStep == .waitingForTurn, "the second change read the record while the first held it")
        let record = try #require(try await registry.record(for: device))
        #expect(record.connectionCount == 2)
        #expect(record.lastConnected == Fixtures.newYear.advanced(by: .seconds(1)))
    }
}

/// A repository in memory whose ``update(_:_:)`` reads the record, reports the read, and waits until ``open()``
/// before it changes and saves it: the window between read and save, held open.
actor GatedDeviceRepository: DeviceRepository {
    private var records: [DeviceID: ConnectionRecord] = [:]
    private var isOpen = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private let didRead: @Sendable () -> Void

    /// A closed gate; `didRead` is told each time an update has read its record.
    init(didRead: @escaping @Sendable () -> Void) { self.didRead = didRead }

    /// Lets every update through, those waiting and those to come.
    func open() {
        isOpen = true
        for update in held { update.resume() }
        held = []
    }

    func save(_ record: ConnectionRecord) throws(AirlinkError) {
        try record.validate()
        records[record.id] = record
    }

    func record(for id: DeviceID) -> ConnectionRecord? { records[id] }

    func all() -> [ConnectionRecord] { records.values.sorted(by: ConnectionRecord.isMoreRecent) }

    func remove(_ id: DeviceID) -> Bool { records.removeValue(forKey: id) != nil }

    func update(
        _ id: DeviceID, _ change: @escaping @Sendable (ConnectionRecord?) throws(AirlinkError) -> ConnectionRecord
    ) async throws(AirlinkError) -> ConnectionRecord {
        let stored = records[id]
        didRead()
        if !isOpen { await withCheckedContinuation { held.append($0) } }
        let record = try change(stored)
        try Self.checkUpdate(of: id, produced: record)
        try save(record)
        return record
    }
}
