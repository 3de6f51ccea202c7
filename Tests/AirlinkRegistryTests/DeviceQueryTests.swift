import AirlinkCore
import AirlinkRegistry
import Testing

/// The identity rule: a record's key is the id the transport reports; a user may type the address
/// alone, and a typed type that contradicts the known one is refused.
@Suite struct DeviceQueryTests {
    static let publicID: DeviceID = "C0:FF:EE:00:00:01"
    static let randomID: DeviceID = "C0:FF:EE:00:00:01/random"
    static let other: DeviceID = "B4:77:E2:00:00:02"

    @Test(
        arguments: [
            ("C0:FF:EE:00:00:01", [other, randomID], randomID),
            ("c0-ff-ee-00-00-01", [randomID], randomID),
            ("C0:FF:EE:00:00:01", [publicID, other], publicID),
            ("C0:FF:EE:00:00:01", [other], publicID),
            ("C0:FF:EE:00:00:01/random", [], randomID),
            ("C0:FF:EE:00:00:01/random", [publicID, randomID], randomID),
            ("C0:FF:EE:00:00:01/public", [publicID, randomID], publicID),
            ("id:abc", [publicID], "id:abc"),
        ] as [(String, [DeviceID], DeviceID)])
    func aQueryNamesTheOneKnownDevice(text: String, known: [DeviceID], expected: DeviceID) throws {
        // Given the ids known; When the typed text is resolved; Then it names the expected device
        #expect(try DeviceQuery(parsing: text).resolve(among: known) == expected)
    }

    @Test(
        arguments: [
            ("C0:FF:EE:00:00:01/random", [publicID], "has a public address (known as C0:FF:EE:00:00:01)"),
            ("C0:FF:EE:00:00:01/public", [randomID], "has a random address (known as C0:FF:EE:00:00:01/random)"),
            (
                "C0:FF:EE:00:00:01", [randomID, other, publicID],
                "names several devices: C0:FF:EE:00:00:01, C0:FF:EE:00:00:01/random"
            ),
        ] as [(String, [DeviceID], String)])
    func aContradictedTypeOrAnAmbiguousAddressIsATypedError(text: String, known: [DeviceID], fragment: String) {
        // Given the ids known; When the typed text is resolved
        let error = #expect(throws: AirlinkError.self) { try DeviceQuery(parsing: text).resolve(among: known) }

        // Then it is refused as an invalid device id, naming the real type or the candidates
        #expect(error?.code == .invalidDeviceID)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
    }
}
