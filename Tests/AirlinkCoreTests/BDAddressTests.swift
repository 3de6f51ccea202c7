import Foundation
import Testing

@testable import AirlinkCore

@Suite struct BDAddressTests {
    @Test(arguments: ["C0:FF:EE:00:00:01", "c0:ff:ee:00:00:01", "C0-FF-EE-00-00-01", "c0-Ff-eE-00-00-01"])
    func parsesEveryAcceptedForm(text: String) throws {
        // When the address is parsed
        let address = try BDAddress(parsing: text)

        // Then it is the one address, printed uppercase with colons
        #expect(address.value == 0xC0FF_EE00_0001)
        #expect(address.description == "C0:FF:EE:00:00:01")
    }

    @Test func bytesComeInWrittenAndAirOrder() throws {
        // Given C0:FF:EE:00:00:01
        let address = try BDAddress(parsing: "C0:FF:EE:00:00:01")

        // Then written order is most significant first, HCI order least significant first
        #expect(address.bytes == [0xC0, 0xFF, 0xEE, 0x00, 0x00, 0x01])
        #expect(address.littleEndianBytes == [0x01, 0x00, 0x00, 0xEE, 0xFF, 0xC0])
        #expect(try BDAddress(littleEndian: address.littleEndianBytes) == address)
        #expect(try BDAddress(bytes: address.bytes) == address)
    }

    @Test func wrongByteCountIsRejected() {
        #expect(throws: AirlinkError.self) { try BDAddress(littleEndian: [0x01, 0x02, 0x03]) }
    }

    @Test(arguments: [
        ("C0:00:00:00:00:01", RandomAddressKind.static),
        ("7F:00:00:00:00:01", .resolvablePrivate),
        ("3F:00:00:00:00:01", .nonResolvablePrivate),
        ("80:00:00:00:00:01", .reserved),
    ])
    func randomKindComesFromTheTwoTopBits(text: String, kind: RandomAddressKind) throws {
        #expect(try BDAddress(parsing: text).randomAddressKind == kind)
    }

    @Test(arguments: [
        ("", "it is empty"),
        ("C0:FF:EE:00:00", "it has 5 groups separated by ':'"),
        ("C0FFEE000001", "it has 1 group separated by ':'"),
        ("C0:FF:EE:00:00:0G", "'G' is not a hex digit"),
        ("C0:FF:EE:00:00:001", "the group \"001\" does not have two digits"),
        ("C0:FF:EE-00-00-01", "it mixes ':' and '-' separators"),
    ])
    func rejectsBadStringsNamingTheFault(text: String, why: String) {
        #expect {
            try BDAddress(parsing: text)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .invalidDeviceID && error.message.contains("\"\(text)\"")
                && error.message.contains(why) && error.message.contains("C0:FF:EE:00:00:01")
        }
    }

    @Test func codesAsItsWrittenForm() throws {
        // Given an address
        let address = try BDAddress(parsing: "c0:ff:ee:00:00:01")

        // When it is encoded to JSON and back
        let json = try JSONEncoder().encode([address])
        let decoded = try JSONDecoder().decode([BDAddress].self, from: json)

        // Then it is written as a string and read back unchanged
        #expect(String(decoding: json, as: UTF8.self) == #"["C0:FF:EE:00:00:01"]"#)
        #expect(decoded == [address])
    }
}
