import Testing

/// The transport contract on `BlueZTransport` against the real bluetoothd and the real kernel, with Airlink's
/// world as the controller: the same checks as on the fake BlueZ and the virtual radio. Runs inside the real-stack
/// virtual machine (`bash Scripts/realstack/test`); elsewhere each test is skipped, saying so.
@Suite(
    "Transport contract on the real Linux stack", .serialized,
    .enabled(if: RealBlueZContractWorld.isEnabled, "runs inside the real-stack VM: bash Scripts/realstack/test"))
struct RealBlueZContractTests {
    @Test(.disabled("the controller serves no SMP yet: pairing through the real stack is left (Docs/RealStack.md)"))
    func pairsAndBonds() async throws {
        try await TransportContract.pairsAndBonds(try await RealBlueZContractWorld.fresh())
    }

    @Test func discoversWithFilters() async throws {
        try await TransportContract.discoversWithFilters(try await RealBlueZContractWorld.fresh())
    }

    @Test func connectsAndDiscovers() async throws {
        try await TransportContract.connectsAndDiscovers(try await RealBlueZContractWorld.fresh())
    }

    @Test func readsValues() async throws {
        try await TransportContract.readsValues(try await RealBlueZContractWorld.fresh())
    }

    @Test func writesValues() async throws {
        try await TransportContract.writesValues(try await RealBlueZContractWorld.fresh())
    }

    @Test func deliversNotifications() async throws {
        try await TransportContract.deliversNotifications(try await RealBlueZContractWorld.fresh())
    }

    @Test func reconnectsWithUnchangedDatabaseOnTheSameHandles() async throws {
        try await TransportContract.reconnectsWithUnchangedDatabaseOnTheSameHandles(
            try await RealBlueZContractWorld.fresh())
    }

    @Test func reportsAChangedDatabaseAndDiscoversTheNewHandles() async throws {
        try await TransportContract.reportsAChangedDatabaseAndDiscoversTheNewHandles(
            try await RealBlueZContractWorld.fresh())
    }

    @Test func disconnects() async throws {
        try await TransportContract.disconnects(try await RealBlueZContractWorld.fresh())
    }

    @Test func reportsConnectionLoss() async throws {
        try await TransportContract.reportsConnectionLoss(try await RealBlueZContractWorld.fresh())
    }

    @Test func mapsATTErrors() async throws {
        try await TransportContract.mapsATTErrors(try await RealBlueZContractWorld.fresh())
    }

    @Test func refusesOperationsWithoutLink() async throws {
        try await TransportContract.refusesOperationsWithoutLink(try await RealBlueZContractWorld.fresh())
    }

    @Test func timesOutUnansweredRequests() async throws {
        try await TransportContract.timesOutUnansweredRequests(try await RealBlueZContractWorld.fresh())
    }

    @Test func endsStreamsWhenClosed() async throws {
        try await TransportContract.endsStreamsWhenClosed(try await RealBlueZContractWorld.fresh())
    }
}
