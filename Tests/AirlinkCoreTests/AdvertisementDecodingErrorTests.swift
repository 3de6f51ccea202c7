import Testing

@testable import AirlinkCore

/// Every rejection of the AD-structure decoder, with the offset it names.
@Suite struct AdvertisementDecodingErrorTests {
    static let flags: [UInt8] = [0x02, 0x01, 0x06]

    @Test(
        arguments: [
            // A length running past the end: the offset is the length byte's
            (flags + [0x05, 0x03, 0x0F, 0x18], 3, "length 5 runs past the end: 3 bytes follow"),
            (flags + [0x03], 3, "length 3 runs past the end: 0 bytes follow"),
            ([0x02, 0x01], 0, "length 2 runs past the end: 1 byte follows"),
            // UUID lists whose length is not a multiple of the UUID size
            (flags + [0x04, 0x03, 0x0F, 0x18, 0x0A], 3, "Complete List of 16-bit Service UUIDs (0x03) has 3 bytes"),
            (flags + [0x02, 0x02, 0x0F], 3, "Incomplete List of 16-bit Service UUIDs (0x02) has 1 byte of data"),
            (flags + [0x04, 0x05, 0x00, 0xAA, 0x00], 3, "which is not a multiple of 4"),
            ([0x0B, 0x07] + [UInt8](repeating: 0, count: 10), 0, "which is not a multiple of 16"),
            // Fields of a fixed size
            (flags + [0x03, 0x0A, 0x00, 0x00], 3, "TX Power Level (0x0A) takes 1 byte of data, not 2"),
            (flags + [0x01, 0x0A], 3, "TX Power Level (0x0A) takes 1 byte of data, not 0"),
            (flags + [0x02, 0x19, 0x40], 3, "Appearance (0x19) takes 2 bytes of data, not 1"),
            // Fields too short for their UUID or company identifier
            (flags + [0x02, 0x16, 0x0F], 3, "Service Data - 16-bit UUID (0x16) needs 2 bytes for its UUID"),
            (flags + [0x04, 0x20, 0x00, 0xAA, 0x00], 3, "Service Data - 32-bit UUID (0x20) needs 4 bytes"),
            (flags + [0x03, 0x21, 0x01, 0x02], 3, "Service Data - 128-bit UUID (0x21) needs 16 bytes"),
            (
                flags + [0x02, 0xFF, 0x4C], 3,
                "Manufacturer Specific Data (0xFF) needs 2 bytes for its company identifier"
            ),
            // A name that is not UTF-8: the offset is the bad byte's
            (flags + [0x05, 0x09, 0x41, 0xC3, 0x28, 0x42], 6, "Complete Local Name (0x09) is not valid UTF-8"),
            (flags + [0x03, 0x08, 0x41, 0xE2], 6, "Shortened Local Name (0x08) is not valid UTF-8"),
            ([0x02, 0x09, 0xFF], 2, "is not valid UTF-8"),
        ] as [([UInt8], Int, String)])
    func rejectsMalformedDataNamingTheOffset(bytes: [UInt8], offset: Int, why: String) {
        // When malformed data is decoded
        // Then the error is .malformedData, names the offset of the fault and says what is wrong
        #expect {
            try Advertisement(decoding: bytes)
        } throws: { error in
            guard let error = error as? AirlinkError else { return false }
            return error.code == .malformedData
                && error.message.hasPrefix("malformed advertising data at offset \(offset): ")
                && error.message.contains(why)
        }
    }

    @Test func splitReportsEachStructureWithItsOffset() throws {
        // Given flags and a one-byte name
        let parts = try ADStructure.split([0x02, 0x01, 0x06, 0x02, 0x09, 0x41])

        // Then each structure comes with the offset of its length byte
        #expect(parts.map(\.offset) == [0, 3])
        #expect(parts.map(\.structure.description) == ["Flags (0x01): 06", "Complete Local Name (0x09): 41"])
    }
}
