import AirlinkBlueZTestSupport
import Foundation
import Testing

/// A D-Bus system bus that accepts and never answers ends every command that opens it at the open deadline
/// (5 s) with a typed error naming `DBUS_SYSTEM_BUS_ADDRESS`, never after minutes.
@Suite struct SilentBusTests {
    @Test(arguments: [
        ["scan", "--transport", "bluez", "--json"],
        ["connect", "C0:FF:EE:00:00:01", "--transport", "bluez"],
        ["read", "B4:77:E2:00:00:02", "battery", "battery-level", "--transport", "bluez"],
        ["doctor", "--json", "--rfkill", "/nonexistent"],
    ])
    func aSilentBusEndsAtTheDeadline(_ arguments: [String]) async throws {
        // Given a system bus that accepts and never answers
        let bus = try SilentBus()
        defer { bus.close() }
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When a command opens it
        let result = try await cli.start(arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            .wait(upTo: .seconds(30))

        // Then it ends by itself, with exit 1, saying the bus did not answer and what to check
        #expect(!result.timedOut, "\(result)")
        #expect(!result.signalled, "\(result)")
        #expect(result.status == 1, "\(result)")
        #expect((result.stdout + result.stderr).contains("did not answer within 5s"), "\(result)")
        #expect((result.stdout + result.stderr).contains("DBUS_SYSTEM_BUS_ADDRESS"), "\(result)")
    }
}
