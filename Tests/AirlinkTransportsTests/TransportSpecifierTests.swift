import AirlinkCore
import AirlinkTransports
import Testing

struct TransportSpecifierTests {
    @Test(arguments: [
        ("sim", TransportSpecifier.simulation(scenario: nil)),
        ("sim:Simulations/reconnect.yaml", .simulation(scenario: "Simulations/reconnect.yaml")),
        ("bluez", .bluez(adapter: nil)),
        ("bluez:hci1", .bluez(adapter: "hci1")),
        (" BlueZ:hci0 ", .bluez(adapter: "hci0")),
    ])
    func parsesWhatUsersType(text: String, expected: TransportSpecifier) throws {
        // Given what a user typed, when it is parsed, then it names the transport and prints back
        let parsed = try TransportSpecifier(parsing: text)
        #expect(parsed == expected)
        #expect(try TransportSpecifier(parsing: parsed.description) == parsed)
    }

    @Test(arguments: ["", "usb:0", "bluez:usb0", "bluez:hci", "bluez:", "sim:", "bluez:hci0x"])
    func rejectsWithTheAcceptedForms(text: String) {
        // Given a string that names no transport, when it is parsed, then the error lists the forms
        let error = #expect(throws: AirlinkError.self) { _ = try TransportSpecifier(parsing: text) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("bluez:hci0") == true)
    }

    @Test func readsTheEnvironmentVariable() throws {
        // Given AIRLINK_TRANSPORT set, unset, or set wrongly
        #expect(try TransportSpecifier.fromEnvironment(["AIRLINK_TRANSPORT": "bluez:hci2"]) == .bluez(adapter: "hci2"))
        #expect(try TransportSpecifier.fromEnvironment([:]) == nil)
        #expect(try TransportSpecifier.fromEnvironment(["AIRLINK_TRANSPORT": "  "]) == nil)
        let error = #expect(throws: AirlinkError.self) {
            _ = try TransportSpecifier.fromEnvironment(["AIRLINK_TRANSPORT": "bt0"])
        }
        #expect(error?.message.contains("AIRLINK_TRANSPORT=bt0") == true)
    }

    @Test func simWithoutTheHookSaysWhatIsMissing() async {
        // Given a selector without the virtual radio wired in, when sim is asked for
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await TransportSelector().makeTransport(from: "sim")
        }

        // Then the error says the hook is missing
        #expect(error?.code == .transportUnavailable)
        #expect(error?.message.contains("makeSimulated") == true)
    }

    @Test func simUsesTheHookWithTheScenario() async throws {
        // Given a selector whose hook records the scenario it was given
        let selector = TransportSelector(makeSimulated: { (scenario) throws(AirlinkError) -> any Transport in
            throw AirlinkError(.invalidSpecification, "hook saw \(scenario ?? "none")")
        })

        // When sim:PATH is asked for, then the hook receives the path
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await selector.makeTransport(from: "sim:a.yaml")
        }
        #expect(error?.message == "hook saw a.yaml")
    }

    @Test func bluezWithoutABusSaysHowToFixIt() async {
        // Given a BlueZ configuration on a bus nobody serves
        let selector = TransportSelector(bluez: .init(busAddress: "unix:path=/nonexistent/airlink-selector-bus"))

        // When bluez:hci0 is asked for, then the error says the bus is unreachable
        let error = await #expect(throws: AirlinkError.self) {
            _ = try await selector.makeTransport(from: "bluez:hci0")
        }
        #expect(error?.code == .transportUnavailable)
        #expect(error?.message.contains("dbus") == true)
    }
}
