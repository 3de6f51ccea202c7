import Testing

/// Bad flags and values end with exit code 64 and a message that says what to type; failures at
/// run time with exit code 1 and the typed error's message.
@Suite struct BadInputTests {
    /// One bad invocation, what it must exit with, and what its message must say.
    struct Case: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var environment: [String: String] = [:]
        var status: Int32 = 64
        var message: String

        var testDescription: String { "airlink " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["scan", "--transport", "usb:0"], message: "write sim, sim:PATH"),
        Case(arguments: ["scan", "--transport", "bluez:hcx"], message: "is not a BlueZ adapter name"),
        Case(arguments: ["scan", "--transport", "sim:world.yaml"], message: "airlink simulate"),
        Case(arguments: ["scan"], environment: ["AIRLINK_TRANSPORT": "radio"], message: "AIRLINK_TRANSPORT=radio"),
        Case(arguments: ["connect"], message: "airlink connect ID, or airlink connect --last"),
        Case(arguments: ["connect", "C0:FF:EE:00:00:01", "--last"], message: "either an ID or --last"),
        Case(arguments: ["connect", "not-an-id"], message: "is not a device id"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "linear:2s"], message: "linear:2s,3"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "linear:soon,3"], message: "is not a duration"),
        Case(arguments: ["connect", World.thermostat, "--reconnect", "exponential:30s,1s,5"], message: "the cap"),
        Case(arguments: ["connect", World.thermostat, "--connect-timeout", "0s"], message: "500ms or 10s"),
        Case(arguments: ["read", World.battery, "battery", "battery-levle"], message: "battery-level"),
        Case(arguments: ["read", World.battery, "battery", "battery-level", "--format", "float"], message: "uint8"),
        Case(arguments: ["write", World.battery, "battery", "battery-level", "0xABC"], message: "pairs of hex digits"),
        Case(
            arguments: ["write", World.battery, "battery", "battery-level", "300", "--format", "uint8"],
            message: "0...255"),
        Case(
            arguments: ["subscribe", World.battery, "battery", "battery-level", "--count", "0"], message: "--count 5"),
        Case(arguments: ["forget", "nobody"], message: "is not a device id"),
        // Run-time failures: typed errors with their message.
        Case(
            arguments: ["read", World.battery, "heart-rate", "heart-rate-measurement"], status: 1,
            message: "serviceNotFound"),
        Case(arguments: ["connect", "AA:BB:CC:DD:EE:FF"], status: 1, message: "deviceNotFound"),
        Case(
            arguments: ["scan", "--transport", "bluez"],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus"], status: 1,
            message: "D-Bus system bus"),
        Case(
            arguments: ["scan"],
            environment: [
                "AIRLINK_TRANSPORT": "bluez", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/airlink-bus",
            ], status: 1, message: "is dbus running?"),
    ]

    @Test(arguments: cases)
    func badInputSaysWhatToType(_ bad: Case) throws {
        // Given the CLI
        let cli = try CLI()
        defer { cli.cleanUp() }

        // When it is run with the bad input
        let result = try cli.run(bad.arguments, environment: bad.environment)

        // Then it exits with the expected code and says what was wrong
        #expect(result.status == bad.status, "\(result)")
        #expect(result.stderr.contains(bad.message), "\(result)")
    }
}
