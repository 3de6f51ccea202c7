import AirlinkBlueZTestSupport
import AirlinkCore
import AirlinkSimulation
import AirlinkTestKit
import Testing

/// The transport contract on the virtual radio serving replayed recordings of the two reference peripherals
/// (Docs/RecordReplay.md): each peripheral is recorded through the radio with `DeviceRecorder`,
/// the recording written as YAML and read back, and its replay stands in for the original in the same checks
/// the original passes. Recorded without subscriptions, so the replay sends no recorded notifications of its own
/// into the checks that count them.
@Suite struct ReplayedRecordingContractTests {
    /// The replayed specs, recorded once per process.
    static let replayed: Task<[PeripheralSpec], any Error> = Task {
        var specs: [PeripheralSpec] = []
        for spec in [ContractPeripherals.thermostat, ContractPeripherals.battery] {
            let simulation = Simulation(seed: 1, strict: true)
            _ = try simulation.add(spec)
            let recorder = DeviceRecorder(transport: simulation.radio, environment: simulation.environment)
            let options = RecordingOptions(duration: .seconds(1), subscribe: .uuids([]))
            let id = spec.id
            let (recording, _) = try await simulation.run { try await recorder.record(id, options: options) }
            let reread = try DeviceRecording.parse(recording.yaml, source: "\(spec.name).yaml")
            specs.append(try reread.peripheralSpec())
        }
        return specs
    }

    private func world() async throws -> VirtualRadioContractWorld {
        try VirtualRadioContractWorld(specs: try await Self.replayed.value)
    }

    @Test func discoversWithFilters() async throws {
        try await TransportContract.discoversWithFilters(try await world())
    }

    @Test func connectsAndDiscovers() async throws {
        try await TransportContract.connectsAndDiscovers(try await world())
    }

    @Test func readsValues() async throws {
        try await TransportContract.readsValues(try await world())
    }

    @Test func writesValues() async throws {
        try await TransportContract.writesValues(try await world())
    }

    @Test func deliversNotifications() async throws {
        try await TransportContract.deliversNotifications(try await world())
    }

    @Test func reconnectsWithUnchangedDatabaseOnTheSameHandles() async throws {
        try await TransportContract.reconnectsWithUnchangedDatabaseOnTheSameHandles(try await world())
    }

    @Test func disconnects() async throws {
        try await TransportContract.disconnects(try await world())
    }

    @Test func reportsConnectionLoss() async throws {
        try await TransportContract.reportsConnectionLoss(try await world())
    }

    @Test func mapsATTErrors() async throws {
        try await TransportContract.mapsATTErrors(try await world())
    }

    @Test func refusesOperationsWithoutLink() async throws {
        try await TransportContract.refusesOperationsWithoutLink(try await world())
    }

    @Test func timesOutUnansweredRequests() async throws {
        try await TransportContract.timesOutUnansweredRequests(try await world())
    }

    @Test func endsStreamsWhenClosed() async throws {
        try await TransportContract.endsStreamsWhenClosed(try await world())
    }
}

/// The transport contract on the virtual radio serving replays of the fake BlueZ's thermostat and battery as
/// recorded through the BlueZ backend: what a user records from a real adapter must stand in for the device in
/// the same checks.
@Suite(.fakeBlueZ(), .serialized) struct ReplayedBlueZRecordingContractTests {
    /// The fixture's two peripherals recorded through `BlueZTransport`, written as YAML, read back and replayed.
    private static func replayedSpecs() async throws -> [PeripheralSpec] {
        let fake = try await FakeBlueZ.fresh()
        defer { fake.stop() }
        let transport = try await fake.transport()
        defer { transport.close() }
        let recorder = DeviceRecorder(transport: transport, environment: .live())
        var specs: [PeripheralSpec] = []
        for spec in [ContractPeripherals.thermostat, ContractPeripherals.battery] {
            let options = RecordingOptions(
                advertisingWindow: .seconds(1), duration: .seconds(1), subscribe: .uuids([]))
            let (recording, _) = try await recorder.record(spec.id, options: options)
            #expect(recording.transport.hasPrefix("bluez"))
            let reread = try DeviceRecording.parse(recording.yaml, source: "\(spec.name).yaml")
            specs.append(try reread.peripheralSpec())
        }
        return specs
    }

    @Test func replaysOfBlueZRecordingsKeepTheContract() async throws {
        // Given the fixture's peripherals recorded through BlueZ and replayed on the virtual radio
        let specs = try await Self.replayedSpecs()

        // When and then: each check of the contract passes on the replays as on the originals
        try await TransportContract.connectsAndDiscovers(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.readsValues(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.writesValues(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.deliversNotifications(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.reconnectsWithUnchangedDatabaseOnTheSameHandles(
            try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.reportsConnectionLoss(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.mapsATTErrors(try VirtualRadioContractWorld(specs: specs))
        try await TransportContract.timesOutUnansweredRequests(try VirtualRadioContractWorld(specs: specs))
    }
}
