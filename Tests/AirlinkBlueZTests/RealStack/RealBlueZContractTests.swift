import AirlinkTransportContract
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
        @Test(arguments: TransportContract.checks)
        func keepsTheContract(_ check: TransportContract.Check) async throws {
            if check.name == "reportsAChangedDatabaseAndDiscoversTheNewHandles" {
                // bluetoothd 5.66 rediscovers the changed range with the old services still in its database until
                // the end: the moved temperature characteristic (0x0010–0x0013) overlaps the old battery service
                // (0x0011 on), and bluetoothd logs "Failed to insert characteristic at 0x0011" and exports the
                // service without it (https://github.com/bluez/bluez/issues/316;
                // https://github.com/hbldh/bleak/issues/628). No transport over D-Bus can find what bluetoothd lost;
                // Docs/RealAdapter.md says what an app does (`refresh-cache`). Known issue: this fails, saying so,
                // when bluetoothd is fixed.
                await withKnownIssue("bluetoothd 5.66 loses a characteristic of a moved, overlapping service") {
                    try await check.run(in: try await RealBlueZContractWorld.fresh())
                }
            } else {
                try await check.run(in: try await RealBlueZContractWorld.fresh())
            }
        }
    }
}
