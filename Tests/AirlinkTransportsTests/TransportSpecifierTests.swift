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
}
