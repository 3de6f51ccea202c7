import Testing

/// Every suite of the real Linux stack, one test at a time: each world is an adapter of the one bluetoothd, and two
/// at once share its scanning and the machine's two cores. Runs inside the real-stack virtual machine
/// (`bash Scripts/realstack/test`); elsewhere each test is skipped, saying so.
@Suite(
    "The real Linux stack", .serialized,
    .enabled(if: RealBlueZContractWorld.isEnabled, "runs inside the real-stack VM: bash Scripts/realstack/test"))
struct RealStackTests {}

extension RealStackTests {
    /// The transport contract on `BlueZTransport` against the real bluetoothd and the real kernel, with Airlink's
    /// world as the controller: the same checks as on the fake BlueZ and the virtual radio.
    @Suite("Transport contract on the real Linux stack")
    struct RealBlueZContractTests {
        @Test func pairsAndBonds() async throws {
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

        /// bluetoothd 5.66 rediscovers the changed range with the old services still in its database until the end:
        /// the moved temperature characteristic (0x0010–0x0013) overlaps the old battery service (0x0011 on), and
        /// bluetoothd logs "Failed to insert characteristic at 0x0011" and exports the service without it (bluez/bluez
        /// issue 316; bleak issue 628). No transport over D-Bus can find what bluetoothd lost; Docs/RealAdapter.md
        /// says what an app does (`refresh-cache`). Known issue: this fails, saying so, when bluetoothd is fixed.
        @Test func reportsAChangedDatabaseAndDiscoversTheNewHandles() async throws {
            await withKnownIssue("bluetoothd 5.66 loses a characteristic of a moved, overlapping service") {
                try await TransportContract.reportsAChangedDatabaseAndDiscoversTheNewHandles(
                    try await RealBlueZContractWorld.fresh())
            }
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
}
