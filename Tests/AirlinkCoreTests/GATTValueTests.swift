import Testing

@testable import AirlinkCore

@Suite struct GATTValueTests {
    @Test func integersAreLittleEndian() throws {
        #expect(UInt16(0x1234).gattBytes == [0x34, 0x12])
        #expect(try Int16(gattBytes: [0xFE, 0xFF]) == -2)
        #expect(try UInt32(gattBytes: [1, 0, 0, 0]) == 1)
    }

    @Test func aPayloadOfTheWrongLengthNamesTypeAndLength() {
        #expect {
            try UInt16(gattBytes: [1, 2, 3])
        } throws: { error in
            let error = error as? AirlinkError
            return error?.code == .malformedData && error?.message.contains("UInt16 takes 2 byte(s), not 3") == true
        }
    }

    @Test func textIsUTF8AndBadBytesGiveTheirOffset() throws {
        #expect(try String(gattBytes: Array("Thermostat".utf8)) == "Thermostat")
        #expect("µT".gattBytes == [0xC2, 0xB5, 0x54])
        #expect {
            try String(gattBytes: [0x41, 0x42, 0xFF])
        } throws: { error in
            (error as? AirlinkError)?.message.contains("offset 2") == true
        }
    }

    @Test func booleansAreOneByteAndRejectOtherValues() throws {
        #expect(try Bool(gattBytes: [1]))
        #expect(throws: AirlinkError.self) { try Bool(gattBytes: [2]) }
    }
}
