import Foundation
import Testing

@testable import AirlinkCore

@Suite struct DeviceIDTests {
    @Test func publicAddressPrintsWithoutSuffix() throws {
        // When a bare address and an explicit /public are parsed
        let bare = try DeviceID(parsing: "C0:FF:EE:00:00:01")
        let explicit = try DeviceID(parsing: "c0:ff:ee:00:00:01/PUBLIC")

        // Then both are the same public identity, printed without a suffix
        #expect(bare == explicit)
        #expect(bare.addressType == .public)
        #expect(bare.randomAddressKind == nil)
        #expect(explicit.description == "C0:FF:EE:00:00:01")
    }

    @Test func randomAddressKeepsItsTypeAndKind() throws {
        // Given a random static address
        let id = try DeviceID(parsing: "C0:FF:EE:00:00:01/random")

        // Then it prints with its suffix, differs from the public one and reports its kind
        #expect(id.description == "C0:FF:EE:00:00:01/random")
        #expect(id.addressType == .random)
        #expect(id.randomAddressKind == .static)
        #expect(id != DeviceID(try BDAddress(parsing: "C0:FF:EE:00:00:01")))
        #expect(id.kind == .address(BDAddress(value: 0xC0FF_EE00_0001), .random))
    }

    @Test func opaqueIdentifierRoundTrips() throws {
        // Given an identifier as another stack gives it
        let id = try DeviceID(opaque: "6F1A0C2E-0D7E-4E7A-9B6B-1D2C3E4F5A6B")

        // Then it prints with the id: prefix and parses back
        #expect(id.description == "id:6F1A0C2E-0D7E-4E7A-9B6B-1D2C3E4F5A6B")
        #expect(try DeviceID(parsing: id.description) == id)
        #expect(id.address == nil)
        #expect(id.opaqueIdentifier == "6F1A0C2E-0D7E-4E7A-9B6B-1D2C3E4F5A6B")
    }

    @Test func stringLiteralAndLosslessStringConvertibleAgree() {
        // Given a literal and the same text held in variables (a literal argument would be coerced)
        let literal: DeviceID = "B4:77:E2:00:00:02/random"
        let good = "B4:77:E2:00:00:02/random"
        let bad = "not an address"

        // Then parsing the text gives the literal's value, and bad text gives nil
        #expect(DeviceID(good) == literal)
        #expect(DeviceID(bad) == nil)
    }

    @Test(arguments: [
        ("C0:FF:EE:00:00:01/randm", "the address type \"randm\" is neither public nor random"),
        ("id:", "the identifier after id: is empty"),
        ("C0:FF:EE:00:00", "it has 5 groups"),
        ("my-sensor", "id:<identifier>"),
        ("", "it is empty"),
    ])
    func rejectsBadStringsNamingTheFault(text: String, why: String) {
        #expect {
            try DeviceID(parsing: text)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidDeviceID && error.message.contains("\"\(text)\"")
                && error.message.contains(why)
        }
    }

    @Test func emptyOpaqueIdentifierIsRejected() {
        #expect(throws: AirlinkError.self) { try DeviceID(opaque: "") }
    }

    @Test func codesAsItsWrittenForm() throws {
        // Given one identity of each kind
        let ids: [DeviceID] = ["C0:FF:EE:00:00:01", "C0:FF:EE:00:00:02/random", "id:hci0/dev_1"]

        // When they are encoded to JSON and back
        let json = try JSONEncoder().encode(ids)
        let decoded = try JSONDecoder().decode([DeviceID].self, from: json)

        // Then each is written as its string and read back unchanged
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"["C0:FF:EE:00:00:01","C0:FF:EE:00:00:02\/random","id:hci0\/dev_1"]"#)
        #expect(decoded == ids)
    }

    @Test func decodingABadStringFailsWithTheMessage() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([DeviceID].self, from: Data(#"["C0:FF"]"#.utf8))
        }
    }
}
